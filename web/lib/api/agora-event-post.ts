// POST /events (Agora v1.0 "Submit Event"): one envelope, signed in this browser. A refusal
// is an ApiError with the spec's code and `details.reason` (decisions-agora.md §19). For a thread
// on an external relay the same envelope goes to /api/external/:serviceId/events, which forwards
// it byte for byte and answers with that relay's own status and body.
import { z } from 'zod';
import type { Envelope } from '@shared/agora/envelope';
import { postJson } from './http';

const Posted = z.looseObject({
  ok: z.literal(true),
  id: z.string(),
  cursor: z.string().optional(),
  duplicate: z.boolean().optional(),
  thread: z.object({ id: z.string(), status: z.string() }).optional(),
});
export type Posted = z.infer<typeof Posted>;

/** `serviceId`: the external relay's id; omitted for the built-in relay. */
export const postEnvelope = (envelope: Envelope, serviceId?: string): Promise<Posted> =>
  postJson(serviceId === undefined ? '/events' : `/api/external/${encodeURIComponent(serviceId)}/events`, envelope, Posted);
