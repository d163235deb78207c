// POST /events (Agora v1.0 "Submit Event"): one envelope, signed in this browser. A refusal
// is an ApiError with the spec's code and `details.reason` (decisions-agora.md §19). For a thread
// on an external relay the same envelope goes to /api/external/:serviceId/events, which forwards
// it byte for byte and answers with that relay's own status and body (the contract's
// ForwardedAnswer: another relay's answer is its own, not ours).
import type { Envelope } from '@shared/agora/envelope';
import { ForwardedAnswer } from '@shared/contract/console';
import { PostAnswer } from '@shared/contract/relay';
import { postJson } from './http';

/** `serviceId`: the external relay's id; omitted for the built-in relay. */
export const postEnvelope = (envelope: Envelope, serviceId?: string): Promise<PostAnswer | ForwardedAnswer> =>
  serviceId === undefined
    ? postJson('/events', envelope, PostAnswer)
    : postJson(`/api/external/${encodeURIComponent(serviceId)}/events`, envelope, ForwardedAnswer);
