// POST /oap/negotiation/{id}/{propose|accept|reject|withdraw} with a document signed in the
// browser; the four calls share one body shape (a signed document) and one answer.
import { z } from 'zod';
import { postJson } from './http';
import { oapBase } from './oap-base';
import { NegotiationSummary } from './negotiations-list';

export type NegotiationEventName = 'propose' | 'accept' | 'reject' | 'withdraw';

const Answer = z.object({ negotiation: NegotiationSummary });

/** `source`: an external negotiation service's id; omitted for the built-in one. */
export const postNegotiationEvent = (id: string, event: NegotiationEventName, document: unknown, source?: string) =>
  postJson(`${oapBase(source)}/oap/negotiation/${encodeURIComponent(id)}/${event}`, document, Answer).then((r) => r.negotiation);
