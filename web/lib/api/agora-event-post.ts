// POST /events (Agora v1.0 "Submit Event"): one envelope, signed in this browser. A refusal
// is an ApiError with the spec's code and `details.reason` (decisions-agora.md §19).
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

export const postEnvelope = (envelope: Envelope): Promise<Posted> => postJson('/events', envelope, Posted);
