// POST /oap/negotiation/{id}/{propose|accept|reject|withdraw} with a document signed in the
// browser; the four calls share one body shape (a signed document) and one answer.
import { StepAnswer } from '@shared/contract/negotiation';
import { postJson } from './http';
import { oapBase } from './oap-base';

export type NegotiationEventName = 'propose' | 'accept' | 'reject' | 'withdraw';

/** `source`: an external negotiation service's id; omitted for the built-in one. */
export const postNegotiationEvent = (id: string, event: NegotiationEventName, document: unknown, source?: string) =>
  postJson(`${oapBase(source)}/oap/negotiation/${encodeURIComponent(id)}/${event}`, document, StepAnswer).then(
    (r) => r.negotiation,
  );
