// POST /oap/negotiation/{id}/agreement/cosign {by, signature}: the signature is over the
// agreement statement (`statement_jcs`), made in the browser with the operator's key.
import { z } from 'zod';
import { postJson } from './http';
import { oapBase } from './oap-base';
import { NegotiationSummary } from './negotiations-list';

const Answer = z.object({ negotiation: NegotiationSummary, log_entry: z.record(z.string(), z.unknown()).nullable() });

export const cosignAgreement = (id: string, by: string, signature: string, source?: string) =>
  postJson(`${oapBase(source)}/oap/negotiation/${encodeURIComponent(id)}/agreement/cosign`, { by, signature }, Answer);
