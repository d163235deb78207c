// POST /oap/negotiation/open with an OpenDocument signed in the browser.
import { z } from 'zod';
import { postJson } from './http';
import { NegotiationSummary } from './negotiations-list';

const Answer = z.object({ negotiation: NegotiationSummary });

export const openNegotiation = (document: unknown) => postJson('/oap/negotiation/open', document, Answer).then((r) => r.negotiation);
