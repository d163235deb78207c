// GET /api/scheduling/threads/{threadId}/standing?revision=: asked just before signing a Confirm
// or Cancel planned from `revision`; a 409 names who decided first and when (its `details`).
import { ThreadStanding } from '@shared/contract/console';
import { getJson } from './http';

export const checkStanding = (threadId: string, revision: number) =>
  getJson(`/api/scheduling/threads/${encodeURIComponent(threadId)}/standing?revision=${revision}`, ThreadStanding);
