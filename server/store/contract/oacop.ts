// The Store contract, its OACoP records: the burn ledger, bookings that never overlap, agent state.
// store-suite.ts composes the parts under one describe; `store()` is the current test's fresh store.
import { describe, expect, it } from 'vitest';
import type { Store } from '../store';
import { T0 } from './fixtures';

export function describeOacopContract(store: () => Store): void {
  describe('oacop ledger, bookings and agent state', () => {
    const booking = (threadId: string, start: number, end: number) => ({
      owner: 'did:key:room',
      threadId,
      start,
      end,
      revision: 2,
      title: threadId,
      bookedAt: T0,
    });
    const noOverlap = (b: { start: number; end: number }) => (others: readonly { start: number; end: number }[]) =>
      others.some((o) => o.start < b.end && b.start < o.end)
        ? { ok: false as const, error: { code: 'OACOP_CONFLICT', message: 'taken' } }
        : { ok: true as const, value: undefined };

    it('records a burn once: the same again is a duplicate, another burner or amount a conflict', async () => {
      const burn = { txId: 'oap:tx:1', burnedBy: 'did:key:a', amount: '5', burnedAt: T0 };
      await store().oacop.credit('did:key:a', '20', T0);
      expect(await store().oacop.recordBurn(burn)).toBe('stored');
      expect(await store().oacop.recordBurn(burn)).toBe('duplicate');
      expect(await store().oacop.recordBurn({ ...burn, amount: '6' })).toBe('conflict');
      expect(await store().oacop.getBurn('oap:tx:1')).toEqual({ ...burn, usedFor: null });
      expect(await store().oacop.getBurn('oap:tx:none')).toBeUndefined();
    });

    it('a burn pays for one thread only, redelivery to the same thread included, even when used concurrently', async () => {
      await store().oacop.credit('did:key:a', '1', T0);
      await store().oacop.recordBurn({ txId: 'oap:tx:2', burnedBy: 'did:key:a', amount: '1', burnedAt: T0 });
      const used = await Promise.all(['t1', 't2', 't3'].map((t) => store().oacop.useBurn('oap:tx:2', t)));
      expect(used.filter(Boolean)).toHaveLength(1);
      const winner = (await store().oacop.getBurn('oap:tx:2'))!.usedFor!;
      expect(await store().oacop.useBurn('oap:tx:2', winner)).toBe(true);
      expect(await store().oacop.useBurn('oap:tx:unknown', 't1')).toBe(false);
    });

    it('a DID burns only what it holds: a burn beyond the balance is refused and changes nothing', async () => {
      const oacop = store().oacop;
      expect(await oacop.balanceOf('did:key:poor')).toBe('0');
      expect(
        await oacop.recordBurn({
          txId: 'oap:tx:p1',
          burnedBy: 'did:key:poor',
          amount: '999999999999999999',
          burnedAt: T0,
        }),
      ).toBe('insufficient');
      expect(await oacop.getBurn('oap:tx:p1')).toBeUndefined();
      expect(await oacop.credit('did:key:rich', '10.5', T0)).toBe('10.5');
      expect(await oacop.credit('did:key:rich', '0.00000001', T0)).toBe('10.50000001');
      expect(
        await oacop.recordBurn({ txId: 'oap:tx:r1', burnedBy: 'did:key:rich', amount: '10.5', burnedAt: T0 }),
      ).toBe('stored');
      expect(await oacop.balanceOf('did:key:rich')).toBe('0.00000001');
      // A duplicate of a stored burn is not charged twice; one beyond the rest is refused.
      expect(
        await oacop.recordBurn({ txId: 'oap:tx:r1', burnedBy: 'did:key:rich', amount: '10.5', burnedAt: T0 }),
      ).toBe('duplicate');
      expect(
        await oacop.recordBurn({ txId: 'oap:tx:r2', burnedBy: 'did:key:rich', amount: '0.00000002', burnedAt: T0 }),
      ).toBe('insufficient');
      expect(await oacop.balanceOf('did:key:rich')).toBe('0.00000001');
      expect(await oacop.getBurn('oap:tx:r2')).toBeUndefined();
      // Huge amounts stay exact.
      await oacop.credit('did:key:whale', '999999999999999999.99999999', T0);
      await oacop.credit('did:key:whale', '999999999999999999.99999999', T0);
      expect(await oacop.balanceOf('did:key:whale')).toBe('1999999999999999999.99999998');
    });

    it('concurrent burns never spend more than the balance', async () => {
      const oacop = store().oacop;
      await oacop.credit('did:key:c', '5', T0);
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          oacop.recordBurn({ txId: `oap:tx:c${i}`, burnedBy: 'did:key:c', amount: '1', burnedAt: T0 }),
        ),
      );
      expect(outcomes.filter((o) => o === 'stored')).toHaveLength(5);
      expect(outcomes.filter((o) => o === 'insufficient')).toHaveLength(7);
      expect(await oacop.balanceOf('did:key:c')).toBe('0');
    });

    it('books a slot only when the decision over the other bookings accepts, once under concurrency; unbooks', async () => {
      const results = await Promise.all(
        ['a', 'b'].map((t) =>
          store().oacop.book(booking(t, T0, T0 + 60_000), noOverlap({ start: T0, end: T0 + 60_000 })),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.find((r) => !r.ok)).toMatchObject({ error: { code: 'OACOP_CONFLICT' } });
      const [kept] = await store().oacop.listBookings('did:key:room', T0, T0 + 1);
      // The same thread re-books over itself (a moved confirmation): its own row is not an "other".
      expect(
        (
          await store().oacop.book(
            { ...booking(kept!.threadId, T0 + 30_000, T0 + 90_000), revision: 3 },
            noOverlap({ start: T0 + 30_000, end: T0 + 90_000 }),
          )
        ).ok,
      ).toBe(true);
      expect(await store().oacop.listBookings('did:key:room', 0, T0 * 2)).toEqual([
        { ...booking(kept!.threadId, T0 + 30_000, T0 + 90_000), revision: 3 },
      ]);
      expect(await store().oacop.listBookings('did:key:room', T0 + 90_000, T0 * 2)).toEqual([]);
      expect(await store().oacop.unbook('did:key:room', kept!.threadId)).toBe(true);
      expect(await store().oacop.unbook('did:key:room', kept!.threadId)).toBe(false);
    });

    it("keeps an agent's own state per key", async () => {
      expect(await store().oacop.getAgentState('did:key:a', 'thread:1')).toBeUndefined();
      await store().oacop.putAgentState('did:key:a', 'thread:1', { revision: 1 }, T0);
      await store().oacop.putAgentState('did:key:a', 'thread:1', { revision: 2 }, T0 + 1);
      expect(await store().oacop.getAgentState('did:key:a', 'thread:1')).toEqual({ revision: 2 });
      expect(await store().oacop.getAgentState('did:key:b', 'thread:1')).toBeUndefined();
    });
  });
}
