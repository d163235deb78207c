// POST /oap/negotiation/open with an OpenDocument signed in the browser.
import { Opened } from '@shared/contract/negotiation';
import { postJson } from './http';

export const openNegotiation = (document: unknown) =>
  postJson('/oap/negotiation/open', document, Opened).then((r) => r.negotiation);
