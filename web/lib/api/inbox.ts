// GET /api/inbox, the SSE stream's address, and POST /api/inbox/claims {itemId}.
import { InboxClaim, InboxList } from '@shared/contract/inbox';
import { getJson, postJson } from './http';

export const INBOX_STREAM_PATH = '/api/inbox/stream';

export const fetchInbox = (signal: AbortSignal) => getJson('/api/inbox', InboxList, { signal });

export const claimInboxItem = (itemId: string) => postJson('/api/inbox/claims', { itemId }, InboxClaim);
