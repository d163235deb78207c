// GET /api/inbox, the SSE stream's address, POST /api/inbox/claims {itemId} and POST /api/inbox/dismissals {itemId}.
import { z } from 'zod';
import { InboxClaim, type InboxList } from '@shared/contract/inbox';
import { parseInboxList } from '@web/lib/inbox/parse-list';
import { ApiError, getJson, postEmpty, postJson } from './http';

export const INBOX_STREAM_PATH = '/api/inbox/stream';

/** The list, its items checked a slice at a time (web/lib/inbox/parse-list.ts): it may hold thousands. */
export async function fetchInbox(signal: AbortSignal): Promise<InboxList> {
  const list = await parseInboxList(await getJson('/api/inbox', z.unknown(), { signal }));
  if (!list) throw new ApiError(200, 'BAD_RESPONSE', 'The server sent an answer this console does not understand.');
  return list;
}

/** Undefined (a 204) when the item no longer waits (decided meanwhile): nothing to claim. */
export const claimInboxItem = (itemId: string) => postJson('/api/inbox/claims', { itemId }, InboxClaim.optional());

/** Takes the item off every operator's inbox until a new fact brings it back (decisions-server.md §75). */
export const dismissInboxItem = (itemId: string) => postEmpty('/api/inbox/dismissals', { itemId });
