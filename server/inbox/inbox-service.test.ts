// The inbox service over a real board: soft claims lapse by themselves and say so on the stream,
// a co-signature is its party's alone, and changes carry growing versions.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InboxItem } from '@shared/contract/inbox';
import { manualClock } from '../test-support/manual-clock';
import { InboxBoard } from './inbox-board';
import { CLAIM_MS } from './inbox-claims';
import { InboxService, type InboxEvent } from './inbox-service';

const A = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const B = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';

const review: InboxItem = {
  id: 'review:ops:1',
  kind: 'review',
  urgency: 'now',
  title: "agent.analyst's result waits for review in ops",
  quote: null,
  since: 1,
  dueAt: null,
  href: '/rooms/ops',
  ref: { kind: 'review', roomId: 'ops', candidateId: '1', agentId: 'agent.analyst' },
  claim: null,
};
const cosign: InboxItem = {
  ...review,
  id: `cosign:n1:${A}`,
  kind: 'cosign',
  urgency: 'soon',
  ref: { kind: 'cosign', negotiationId: 'n1', party: A, service: null },
};

let service: InboxService | undefined;
afterEach(() => {
  service?.close();
  vi.useRealTimers();
});

function start() {
  vi.useFakeTimers();
  const clock = manualClock(Date.UTC(2026, 10, 27, 12));
  const board = new InboxBoard();
  service = new InboxService({
    board,
    clock,
    summary: () => Promise.resolve({ roomsActive: 0, agentsOnline: 0, rejectsLastHour: 0 }),
    operatorName: (did) => Promise.resolve(did === B ? 'Bea' : undefined),
  });
  const events: InboxEvent[] = [];
  service.subscribe((e) => events.push(e));
  return { clock, board, service, events };
}

describe('InboxService', () => {
  it('lets a claim lapse by itself after 30 s, and tells the streams', async () => {
    const { clock, board, service, events } = start();
    board.put(review);
    const claim = await service.claim(review.id, A);
    expect(claim).toEqual({ did: A, name: 'Operator …sdvktH', until: clock.now() + CLAIM_MS });
    expect(service.snapshot(B).items[0]?.claim).toEqual(claim);
    // Someone else's post while it is live answers the holder's claim.
    expect(await service.claim(review.id, B)).toEqual(claim);
    clock.advance(CLAIM_MS);
    vi.advanceTimersByTime(CLAIM_MS);
    expect(service.snapshot(B).items[0]?.claim).toBeNull();
    expect(events.map((e) => (e.type === 'upsert' ? (e.item.claim?.did ?? null) : e.type))).toEqual([null, A, null]);
    // Lapsed: the next operator takes it, with the name the store knows.
    expect(await service.claim(review.id, B)).toMatchObject({ did: B, name: 'Bea' });
  });

  it('shows a co-signature only to its party, and versions every change in order', async () => {
    const { board, service, events } = start();
    board.put(review);
    board.put(cosign);
    expect(service.snapshot(A).items.map((i) => i.id)).toEqual([review.id, cosign.id]);
    expect(service.snapshot(B).items.map((i) => i.id)).toEqual([review.id]);
    board.put(cosign); // unchanged: no event
    board.remove(review.id, A);
    expect(events.map((e) => [e.type, e.version])).toEqual([
      ['upsert', 1],
      ['upsert', 2],
      ['remove', 3],
    ]);
    expect(service.version).toBe(3);
  });
});
