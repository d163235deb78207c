// POST /oap/negotiation/{id}/agreement/cosign {by, signature}: the signature is over the
// agreement statement (`statement_jcs`), made in the browser with the operator's key.
import { z } from 'zod';
import { postJson } from './http';
import { NegotiationSummary } from './negotiations-list';

const Answer = z.object({ negotiation: NegotiationSummary, log_entry: z.record(z.string(), z.unknown()).nullable() });

export const cosignAgreement = (id: string, by: string, signature: string) =>
  postJson(`/oap/negotiation/${encodeURIComponent(id)}/agreement/cosign`, { by, signature }, Answer);
