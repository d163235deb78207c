// POST /oap/negotiation/{id}/{propose|accept|reject|withdraw} with a document signed in the
// browser; the four calls share one body shape (a signed document) and one answer.
import { z } from 'zod';
import { postJson } from './http';
import { NegotiationSummary } from './negotiations-list';

export type NegotiationEventName = 'propose' | 'accept' | 'reject' | 'withdraw';

const Answer = z.object({ negotiation: NegotiationSummary });

export const postNegotiationEvent = (id: string, event: NegotiationEventName, document: unknown) =>
  postJson(`/oap/negotiation/${encodeURIComponent(id)}/${event}`, document, Answer).then((r) => r.negotiation);
