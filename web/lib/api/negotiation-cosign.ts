// POST /oap/negotiation/{id}/agreement/cosign {by, signature}: the signature is over the
// agreement statement (`statement_jcs`), made in the browser with the operator's key.
import { CosignAnswer } from '@shared/contract/negotiation';
import { postJson } from './http';
import { oapBase } from './oap-base';

export const cosignAgreement = (id: string, by: string, signature: string, source?: string) =>
  postJson(
    `${oapBase(source)}/oap/negotiation/${encodeURIComponent(id)}/agreement/cosign`,
    { by, signature },
    CosignAnswer,
  );
