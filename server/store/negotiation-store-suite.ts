// The NegotiationStore contract as one Vitest suite; every engine runs it unchanged:
//   describeNegotiationStoreContract('sqlite', async () => new SqliteStore(…))
// `makeStore` must return an empty store; each test gets its own and closes it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, fail } from '@shared/errors';
import { DEFAULT_LIMITS } from '@shared/negotiation/manifest';
import { transition } from '@shared/negotiation/transition';
import { appendEntry, redactEntry, verifyChain } from '@shared/negotiation/transparency-log';
import type { NegotiationState } from '@shared/negotiation/state';
import { acceptanceDoc, alice, bob, ctx, opened, proposalDoc, T0 } from '@shared/negotiation/test-support/fixtures';
import type { Store } from './store';

const limits = { ...DEFAULT_LIMITS, maxRounds: 4 };

/** A negotiation at PROPOSED, and the ACCEPTED state that follows it. */
export function acceptedPair(negotiationId = 'neg_01HX2QF8GZRP9V3K5YXJW0AQ7M'): {
  open: NegotiationState;
  proposed: NegotiationState;
  accepted: NegotiationState;
} {
  const open = opened({ negotiation_id: negotiationId });
  const proposed = unwrap(transition(open, { type: 'propose', document: proposalDoc(open, alice) }, ctx()));
  const accepted = unwrap(transition(proposed, { type: 'accept', document: acceptanceDoc(proposed, bob) }, ctx()));
  return { open, proposed, accepted };
}

export function describeNegotiationStoreContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`NegotiationStore contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });
    const create = (state: NegotiationState, createdAt = T0) =>
      store.negotiations.create({ id: state.negotiation_id, state, limits, deadlineAt: null, createdAt });

    it('creates a negotiation once; the version is the history length', async () => {
      const { open } = acceptedPair();
      expect(await create(open)).toBe(true);
      expect(await create(open)).toBe(false);
      const got = await store.negotiations.get(open.negotiation_id);
      expect(got).toMatchObject({
        id: open.negotiation_id,
        version: 1,
        limits,
        logIndex: null,
        deadlineAt: null,
        createdAt: T0,
      });
      expect(got?.state).toEqual(open);
      expect(await store.negotiations.get('neg_missing')).toBeUndefined();
    });

    it('saves only at the expected version (compare-and-set); a stale save writes nothing', async () => {
      const { open, proposed } = acceptedPair();
      await create(open);
      expect(
        await store.negotiations.save(open.negotiation_id, 0, { state: proposed, deadlineAt: 1, now: T0 }),
      ).toEqual({ outcome: 'conflict' });
      const saved = await store.negotiations.save(open.negotiation_id, 1, {
        state: proposed,
        deadlineAt: T0 + 5,
        now: T0 + 1,
      });
      expect(saved.outcome === 'stored' && saved.record).toMatchObject({
        version: 2,
        deadlineAt: T0 + 5,
        updatedAt: T0 + 1,
      });
      expect(
        await store.negotiations.save(open.negotiation_id, 1, { state: proposed, deadlineAt: null, now: T0 }),
      ).toEqual({ outcome: 'conflict' });
      expect(await store.negotiations.save('neg_missing', 1, { state: proposed, deadlineAt: null, now: T0 })).toEqual({
        outcome: 'conflict',
      });
      expect((await store.negotiations.get(open.negotiation_id))?.state).toEqual(proposed);
    });

    it('appends the agreement to the log in the same save; a refused append saves nothing', async () => {
      const { open, proposed, accepted } = acceptedPair();
      await create(open);
      await store.negotiations.save(open.negotiation_id, 1, { state: proposed, deadlineAt: null, now: T0 });
      const refused = await store.negotiations.save(open.negotiation_id, 2, {
        state: accepted,
        deadlineAt: null,
        now: T0,
        appendLog: () => fail('LOG_TIMESTAMP_REGRESSION', 'no'),
      });
      expect(refused).toMatchObject({ outcome: 'refused', error: { code: 'LOG_TIMESTAMP_REGRESSION' } });
      expect((await store.negotiations.get(open.negotiation_id))?.version).toBe(2);
      expect(await store.negotiations.logHead()).toBeNull();
      const saved = await store.negotiations.save(open.negotiation_id, 2, {
        state: accepted,
        deadlineAt: null,
        now: T0,
        appendLog: (head) => appendEntry(head, { agreement: accepted.agreement!, now: T0 }),
      });
      expect(saved.outcome === 'stored' && saved.record.logIndex).toBe(0);
      expect(saved.outcome === 'stored' && saved.entry?.index).toBe(0);
      expect(await store.negotiations.logHead()).toMatchObject({ index: 0 });
    });

    it('chains entries; pages, ranges and single entries read back exactly what was appended', async () => {
      const entries = [];
      for (let i = 0; i < 5; i++) {
        const { open, proposed, accepted } = acceptedPair(`neg_chain${i}`);
        await create(open);
        await store.negotiations.save(open.negotiation_id, 1, { state: proposed, deadlineAt: null, now: T0 });
        const saved = await store.negotiations.save(open.negotiation_id, 2, {
          state: accepted,
          deadlineAt: null,
          now: T0 + i,
          appendLog: (head) => appendEntry(head, { agreement: accepted.agreement!, now: T0 + i }),
        });
        if (saved.outcome === 'stored') entries.push(saved.entry!);
      }
      expect(entries.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
      const page = await store.negotiations.logPage(1, 2);
      expect(page).toEqual({
        entries: entries.slice(1, 3),
        size: 5,
        head: { index: 4, entry_hash: entries[4]!.entry_hash, timestamp: entries[4]!.timestamp },
      });
      expect(await store.negotiations.logFrom(3)).toEqual(entries.slice(3));
      expect(await store.negotiations.logEntry(2)).toEqual(entries[2]);
      expect(await store.negotiations.logEntry(9)).toBeUndefined();
      expect(verifyChain((await store.negotiations.logPage(0, 100)).entries).ok).toBe(true);
    });

    it('changes a public view only through updateLogView; a refusal writes nothing', async () => {
      const { open, proposed, accepted } = acceptedPair();
      await create(open);
      await store.negotiations.save(open.negotiation_id, 1, { state: proposed, deadlineAt: null, now: T0 });
      await store.negotiations.save(open.negotiation_id, 2, {
        state: accepted,
        deadlineAt: null,
        now: T0,
        appendLog: (head) => appendEntry(head, { agreement: accepted.agreement!, now: T0 }),
      });
      const before = await store.negotiations.logEntry(0);
      expect(await store.negotiations.updateLogView(0, () => fail('MATERIAL_FIELD_REDACTED', 'no'))).toMatchObject({
        ok: false,
      });
      expect(await store.negotiations.logEntry(0)).toEqual(before);
      const redacted = await store.negotiations.updateLogView(0, (e) => redactEntry(e, ['/terms/action']));
      expect(redacted.ok).toBe(true);
      expect((await store.negotiations.logEntry(0))?.public.disclosures['/terms/action']).toHaveProperty('digest');
      expect(await store.negotiations.updateLogView(3, (e) => ({ ok: true, value: e }))).toMatchObject({
        ok: false,
        error: { code: 'LOG_INDEX_OUT_OF_RANGE' },
      });
    });

    it('lists newest activity first with state, party and category filters; lists due negotiations by deadline', async () => {
      const a = acceptedPair('neg_listA');
      const b = acceptedPair('neg_listB');
      await create(a.open, T0);
      await create(b.open, T0 + 1);
      await store.negotiations.save('neg_listA', 1, { state: a.proposed, deadlineAt: T0 + 100, now: T0 + 10 });
      expect((await store.negotiations.list({ limit: 10 })).map((r) => r.id)).toEqual(['neg_listA', 'neg_listB']);
      expect((await store.negotiations.list({ status: 'OPEN', limit: 10 })).map((r) => r.id)).toEqual(['neg_listB']);
      expect((await store.negotiations.list({ party: bob.did, limit: 10 })).length).toBe(2);
      expect((await store.negotiations.list({ party: 'did:key:z6MkNobody', limit: 10 })).length).toBe(0);
      expect((await store.negotiations.list({ category: 'scheduling', limit: 10 })).length).toBe(0);
      expect((await store.negotiations.list({ limit: 1 })).length).toBe(1);
      expect((await store.negotiations.listDue(T0 + 100, 10)).map((r) => r.id)).toEqual([]);
      expect((await store.negotiations.listDue(T0 + 101, 10)).map((r) => r.id)).toEqual(['neg_listA']);
      await expect(store.negotiations.list({ limit: 0 })).rejects.toThrow(RangeError);
    });
  });
}
