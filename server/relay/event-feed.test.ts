// The long-poll feed's shortcut must never hide an event: what its window cannot vouch for, the
// waiter re-reads from the store.
import { describe, expect, it } from 'vitest';
import type { StoredRelayEnvelope } from '../store/relay-store';
import { EventFeed } from './event-feed';

const NOW = 1_000_000;
const envelope = (seq: number, overrides: Partial<StoredRelayEnvelope> = {}): StoredRelayEnvelope => ({
  seq,
  id: `e${seq}`,
  kind: 'event',
  digest: 'd',
  type: 'REQUEST',
  sender: 'did:key:zS',
  recipient: 'did:key:zR',
  threadId: 't',
  ts: NOW,
  receivedAt: NOW,
  expiresAt: NOW + 1000,
  json: '{}',
  ...overrides,
});
const feed = (head = 0, window = 4) => new EventFeed({ now: () => NOW, headSeq: head, window });

describe('EventFeed', () => {
  it('wakes a matching waiter with the event, and leaves the others waiting', async () => {
    const f = feed();
    const forR = f.wait(0, { recipient: 'did:key:zR' }, 10, 5_000);
    const forX = f.wait(0, { recipient: 'did:key:zX' }, 10, 50);
    f.publish(envelope(1));
    expect(await forR).toEqual({ kind: 'events', events: [envelope(1)], hasMore: false });
    expect(await forX).toEqual({ kind: 'timeout' });
  });

  it('answers a waiter that read the store before the latest publish from its window, with the limit', async () => {
    const f = feed();
    f.publish(envelope(1));
    f.publish(envelope(2, { type: 'OFFER' }));
    f.publish(envelope(3));
    expect(await f.wait(1, { type: 'REQUEST' }, 10, 0)).toEqual({
      kind: 'events',
      events: [envelope(3)],
      hasMore: false,
    });
    expect(await f.wait(0, {}, 2, 0)).toEqual({
      kind: 'events',
      events: [envelope(1), envelope(2, { type: 'OFFER' })],
      hasMore: true,
    });
    // Expired and non-event envelopes are never delivered.
    f.publish(envelope(4, { expiresAt: NOW - 1 }));
    expect(await f.wait(3, {}, 10, 0)).toEqual({ kind: 'timeout' });
  });

  it('sends waiters back to the store after a gap in seq, a moved head, or beyond its window', async () => {
    const f = feed();
    const waiting = f.wait(0, { recipient: 'did:key:zNobody' }, 10, 5_000);
    f.publish(envelope(1));
    f.publish(envelope(3)); // seq 2 was written by someone else
    expect(await waiting).toEqual({ kind: 'refetch' });
    const again = f.wait(3, {}, 10, 5_000);
    f.noticeHead(7);
    expect(await again).toEqual({ kind: 'refetch' });
    for (let seq = 8; seq <= 20; seq++) f.publish(envelope(seq));
    expect(await f.wait(8, {}, 10, 0)).toEqual({ kind: 'refetch' }); // trimmed out of the window
    expect((await f.wait(18, {}, 10, 0)).kind).toBe('events');
  });

  it('never moves on a wait: a head beyond its own only filters that waiter, the others still get the next publish', async () => {
    const f = feed(3);
    const other = f.wait(3, {}, 10, 5_000);
    // A store read (or, before the route clamped it, a client's cursor) far past anything published.
    expect(await f.wait(999_999_999, {}, 10, 0)).toEqual({ kind: 'timeout' });
    const beyond = f.wait(5, {}, 10, 5_000);
    expect(f.lastSeq).toBe(3);
    f.publish(envelope(4));
    expect(await other).toEqual({ kind: 'events', events: [envelope(4)], hasMore: false });
    // seq 4 was inside what that waiter's store read covered: not news to it.
    expect(f.waiting).toBe(1);
    f.publish(envelope(5));
    f.publish(envelope(6));
    expect(await beyond).toEqual({ kind: 'events', events: [envelope(6)], hasMore: false });
  });

  it('counts registrations without a gap, and knows who listens', async () => {
    const f = feed(5);
    const waiting = f.wait(5, { recipient: 'did:key:zR' }, 10, 5_000);
    expect(f.isListening('did:key:zR')).toBe(true);
    f.noticeOwn(6); // a registration took seq 6
    f.publish(envelope(7));
    expect(await waiting).toEqual({ kind: 'events', events: [envelope(7)], hasMore: false });
    expect(f.isListening('did:key:zR')).toBe(false);
    const aborted = new AbortController();
    const left = f.wait(7, {}, 10, 5_000, aborted.signal);
    aborted.abort();
    expect(await left).toEqual({ kind: 'timeout' });
    expect(f.waiting).toBe(0);
  });
});
