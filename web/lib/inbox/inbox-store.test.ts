// The live inbox falls back to reading the list on a timer when its stream is refused, and stops
// once the stream opens (decisions-server.md §77). A stand-in EventSource and fetch, fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InboxItem, InboxList } from '@shared/contract/inbox';
import { openInbox, POLL_MS, useInbox } from './inbox-store';

class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  constructor(readonly url: string) {
    super();
    FakeEventSource.opened.push(this);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  /** What a browser does when the answer is not a 200 event stream: closed for good. */
  refuse() {
    this.readyState = FakeEventSource.CLOSED;
    this.dispatchEvent(new Event('error'));
  }
  accept() {
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
  }
}

const item = (title: string): InboxItem => ({
  id: `service:${title}`,
  kind: 'service',
  urgency: 'info',
  title,
  quote: null,
  since: 1,
  dueAt: null,
  href: '/settings/services',
  ref: { kind: 'service', serviceId: title },
  claim: null,
});

let served: InboxList;
let reads = 0;

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.opened = [];
  reads = 0;
  served = { items: [], summary: { roomsActive: 0, agentsOnline: 0, rejectsLastHour: 0 }, version: 1 };
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      reads++;
      return new Response(JSON.stringify(served), { headers: { 'content-type': 'application/json' } });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the live inbox when its stream is refused', () => {
  it('reads the list every POLL_MS until the stream opens again, then stops', async () => {
    const close = openInbox();
    await vi.advanceTimersByTimeAsync(0);
    const first = FakeEventSource.opened[0]!;
    first.refuse();
    expect(useInbox.getState().status).toBe('polling');
    const before = reads;
    served = { ...served, items: [item('Acme is down')], version: 2 };
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(reads).toBeGreaterThan(before);
    expect(useInbox.getState().inbox?.items.map((i) => i.title)).toEqual(['Acme is down']);
    served = { ...served, items: [item('Acme is down'), item('Beta is down')], version: 3 };
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(useInbox.getState().inbox?.items).toHaveLength(2);
    // The stream is tried again with backoff (at most 30 s) and, once it opens, polling stops.
    await vi.advanceTimersByTimeAsync(30_000);
    const again = FakeEventSource.opened.at(-1)!;
    expect(again).not.toBe(first);
    again.accept();
    expect(useInbox.getState().status).toBe('live');
    const settled = reads;
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(reads).toBe(settled);
    close();
    expect(useInbox.getState().status).toBe('idle');
  });
});
