// Reads GET /api/inbox/stream as a browser's EventSource would: each `data:` parsed with the
// contract's schema, kept in order, and a way to wait for the first event that matches.
import { InboxStreamEvent } from '@shared/contract/inbox';

export interface InboxStreamReader {
  readonly status: number;
  readonly events: InboxStreamEvent[];
  /** Resolves with the first event (seen or to come) that `match` accepts. */
  until(match: (event: InboxStreamEvent) => boolean): Promise<InboxStreamEvent>;
  /** Resolves once the server ended the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

export async function openInboxStream(baseUrl: string, cookie: string): Promise<InboxStreamReader> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/inbox/stream`, { headers: { cookie }, signal: abort.signal });
  const events: InboxStreamEvent[] = [];
  const waiters: { match: (e: InboxStreamEvent) => boolean; resolve: (e: InboxStreamEvent) => void }[] = [];
  const ended = (async () => {
    if (!res.ok || !res.body) return;
    const decoder = new TextDecoder();
    let buffered = '';
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffered += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, cut);
          buffered = buffered.slice(cut + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (!data) continue;
          const event = InboxStreamEvent.parse(JSON.parse(data));
          events.push(event);
          for (const w of [...waiters])
            if (w.match(event)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(event);
            }
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    status: res.status,
    events,
    ended,
    until(match) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => abort.abort(),
  };
}
