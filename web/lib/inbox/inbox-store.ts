// The inbox, live, for the whole console: the header's count, the favicon, notifications and the
// inbox page all read this one store. GET /api/inbox first (the list shows at once), then the SSE
// stream, whose first event is a snapshot; after a reconnect the server sends a fresh snapshot,
// so nothing is replayed or missed. A refused stream (429: the operator's streams are all in use,
// or a proxy that cuts event streams) falls back to reading the list every POLL_MS while the
// stream is tried again with backoff (decisions-server.md §77). Opened while something needs it,
// closed when nothing does.
import { InboxStreamEvent } from '@shared/contract/inbox';
import { fetchInbox, INBOX_STREAM_PATH } from '@web/lib/api/inbox';
import { create } from 'zustand';
import { applyInboxEvent, fromList, type InboxState } from './inbox-state';
import { parseInboxList } from './parse-list';

export type InboxStatus = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'polling';

/** How often the list is read while the stream is refused. */
export const POLL_MS = 10_000;

interface InboxStore {
  readonly inbox: InboxState | null;
  readonly status: InboxStatus;
  readonly error: string | null;
}

export const useInbox = create<InboxStore>()(() => ({ inbox: null, status: 'idle', error: null }));

const EVENT_TYPES = ['snapshot', 'upsert', 'remove', 'summary'] as const;

let users = 0;
let source: EventSource | undefined;
let retry: ReturnType<typeof setTimeout> | undefined;
let attempt = 0;
let stopFetch: (() => void) | undefined;
let poller: ReturnType<typeof setInterval> | undefined;
let polling: AbortController | undefined;
/** Full jitter, as the rooms' broker connection does: a restarted server is not met all at once. */
const backoffDelay = (n: number) => Math.round(Math.min(30_000, 1_000 * 2 ** (n - 1)) * (0.5 + Math.random() / 2));

/**
 * One stream event applied, in arrival order: a snapshot is checked a slice at a time
 * (parse-list.ts), so the events after it wait in this chain rather than overtake it. `generation`
 * drops what arrives for a stream the console has since closed.
 */
let chain: Promise<void> = Promise.resolve();
let generation = 0;

function apply(data: string): void {
  const at = generation;
  chain = chain.then(async () => {
    const event = await readEvent(data);
    if (!event || at !== generation) return;
    const next = applyInboxEvent(useInbox.getState().inbox, event);
    if (next !== useInbox.getState().inbox) useInbox.setState({ inbox: next });
  });
}

async function readEvent(data: string): Promise<InboxStreamEvent | undefined> {
  // One event this console does not understand is skipped; the next snapshot sets things right.
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof raw === 'object' && raw !== null && 'type' in raw && raw.type === 'snapshot' && 'list' in raw) {
    const list = await parseInboxList(raw.list);
    return list && { type: 'snapshot', list };
  }
  const event = InboxStreamEvent.safeParse(raw);
  return event.success ? event.data : undefined;
}

/** The whole list again: while the stream is down, it is the truth. */
function refresh(): void {
  polling?.abort();
  const controller = new AbortController();
  polling = controller;
  const at = generation;
  fetchInbox(controller.signal).then(
    (list) => {
      if (at === generation && poller !== undefined) useInbox.setState({ inbox: fromList(list) });
    },
    () => undefined, // the next round tries again
  );
}

function startPolling(): void {
  if (poller !== undefined) return;
  poller = setInterval(refresh, POLL_MS);
  refresh();
}

function stopPolling(): void {
  clearInterval(poller);
  poller = undefined;
  polling?.abort();
  polling = undefined;
}

function connect(): void {
  if (users === 0 || source) return;
  const s = new EventSource(INBOX_STREAM_PATH, { withCredentials: true });
  source = s;
  for (const type of EVENT_TYPES) s.addEventListener(type, (e) => apply((e as MessageEvent<string>).data));
  s.addEventListener('open', () => {
    attempt = 0;
    stopPolling();
    useInbox.setState({ status: 'live', error: null });
  });
  s.addEventListener('error', () => {
    if (source !== s) return;
    if (s.readyState === EventSource.CONNECTING) {
      // The browser retries by itself; the reconnected stream starts with a fresh snapshot.
      useInbox.setState({ status: 'reconnecting' });
      return;
    }
    // Closed for good (a refusal such as 401 or 429): read the list on a timer meanwhile, and try
    // the stream again later, backing off with jitter.
    s.close();
    source = undefined;
    attempt += 1;
    useInbox.setState({
      status: 'polling',
      error: `The live inbox was refused; the list is read every ${POLL_MS / 1000} seconds until it reconnects.`,
    });
    startPolling();
    retry = setTimeout(() => {
      retry = undefined;
      connect();
    }, backoffDelay(attempt));
  });
}

/** Starts the live inbox (once for all callers). Returns the closer. */
export function openInbox(): () => void {
  users += 1;
  if (users === 1) {
    useInbox.setState({ status: 'connecting' });
    const controller = new AbortController();
    const at = generation;
    void fetchInbox(controller.signal).then(
      (list) => {
        // The stream may have answered first: keep whichever is newer.
        const held = useInbox.getState().inbox;
        if (at === generation && (!held || held.version < list.version)) useInbox.setState({ inbox: fromList(list) });
      },
      (error: unknown) => {
        if (!(error instanceof DOMException && error.name === 'AbortError'))
          useInbox.setState({ error: error instanceof Error ? error.message : String(error) });
      },
    );
    connect();
    stopFetch = () => controller.abort();
  }
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    users -= 1;
    if (users > 0) return;
    stopFetch?.();
    clearTimeout(retry);
    retry = undefined;
    stopPolling();
    source?.close();
    source = undefined;
    generation += 1;
    attempt = 0;
    useInbox.setState({ inbox: null, status: 'idle', error: null });
  };
}
