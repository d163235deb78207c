// The Store contract, its Agora relay: envelopes and threads appended together in seq order,
// duplicates and conflicts, the directory.
// store-suite.ts composes the parts under one describe; `store()` is the current test's fresh store.
import { describe, expect, it } from 'vitest';
import type { Store } from '../store';
import type { ThreadDecision } from '../relay-store';
import type { ThreadState } from '@shared/agora/thread-state';
import { T0, directoryRecord, open, pending, relayEnvelope } from './fixtures';

export function describeRelayContract(store: () => Store): void {
  describe('agora relay', () => {
    it('appendEvent stores an envelope and its thread together, in seq order, and serves them back', async () => {
      const calls: (string | undefined)[] = [];
      const decide: ThreadDecision = (thread) => {
        calls.push(thread?.threadId);
        return { ok: true, value: { state: pending('t1'), deadlineAt: T0 + 1000 } };
      };
      const first = await store().relay.appendEvent(relayEnvelope('e1', { threadId: 't1' }), decide);
      expect(first).toMatchObject({
        outcome: 'stored',
        envelope: { id: 'e1', seq: expect.any(Number) },
        thread: { threadId: 't1', version: 1, deadlineAt: T0 + 1000 },
      });
      const second = await store().relay.appendEvent(
        relayEnvelope('e2', { threadId: 't1', type: 'OFFER', receivedAt: T0 + 5 }),
        decide,
      );
      expect(second).toMatchObject({ outcome: 'stored', thread: { version: 2, openedAt: T0, updatedAt: T0 + 5 } });
      expect(calls).toEqual([undefined, 't1']);
      const seqs = [first, second].map((o) => (o.outcome === 'stored' ? o.envelope.seq : 0));
      expect(seqs[1]).toBeGreaterThan(seqs[0]!);
      expect(await store().relay.headSeq()).toBe(seqs[1]);
      expect((await store().relay.threadEvents('t1', 10)).map((e) => e.id)).toEqual(['e1', 'e2']);
      expect(await store().relay.findDigest('e1')).toBe('digest-e1');
      expect(await store().relay.findDigest('nope')).toBeUndefined();
    });

    it('appendEvent: same id and digest is a duplicate, another digest a conflict, a refusal stores nothing', async () => {
      await store().relay.appendEvent(relayEnvelope('e1'), open);
      const head = await store().relay.headSeq();
      let decided = 0;
      const counting: ThreadDecision = (t) => (decided++, open(t));
      expect(await store().relay.appendEvent(relayEnvelope('e1'), counting)).toMatchObject({
        outcome: 'duplicate',
        envelope: { id: 'e1', seq: head },
      });
      expect(await store().relay.appendEvent(relayEnvelope('e1', { digest: 'other' }), counting)).toEqual({
        outcome: 'id_conflict',
      });
      expect(decided).toBe(0);
      const error = { code: 'INVALID_REQUEST' as const, message: 'no', details: { reason: 'thread_closed' as const } };
      expect(
        await store().relay.appendEvent(relayEnvelope('e2', { threadId: 'tx' }), () => ({ ok: false, error })),
      ).toEqual({ outcome: 'refused', error });
      expect(await store().relay.headSeq()).toBe(head);
      expect(await store().relay.findDigest('e2')).toBeUndefined();
      expect(await store().relay.getThread('tx')).toBeUndefined();
    });

    it('appendEvent with a null decision stores the envelope and writes no thread (OACoP carriers)', async () => {
      const outcome = await store().relay.appendEvent(relayEnvelope('oc1', { threadId: 'urn:uuid:meet-1' }), () => ({
        ok: true,
        value: null,
      }));
      expect(outcome).toMatchObject({ outcome: 'stored', envelope: { id: 'oc1' } });
      expect('thread' in outcome && outcome.thread).toBeFalsy();
      expect(await store().relay.getThread('urn:uuid:meet-1')).toBeUndefined();
      expect((await store().relay.threadEvents('urn:uuid:meet-1', 10)).map((e) => e.id)).toEqual(['oc1']);
    });

    it('concurrent appends of one id store it once', async () => {
      const outcomes = await Promise.all([1, 2, 3].map(() => store().relay.appendEvent(relayEnvelope('race'), open)));
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(['duplicate', 'duplicate', 'stored']);
      expect((await store().relay.listEvents({ limit: 10 })).events).toHaveLength(1);
    });

    it('concurrent appends are decided one after another: each sees the thread the previous one wrote, a failure stays its own', async () => {
      const seen: (number | undefined)[] = [];
      const chain: ThreadDecision = (thread) => {
        seen.push(thread?.version);
        return open(thread);
      };
      const boom: ThreadDecision = () => {
        throw new Error('decision failed');
      };
      const results = await Promise.allSettled([
        store().relay.appendEvent(relayEnvelope('c1', { threadId: 'tc' }), chain),
        store().relay.appendEvent(relayEnvelope('c2', { threadId: 'tc' }), boom),
        store().relay.appendEvent(relayEnvelope('c3', { threadId: 'tc' }), chain),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      // An engine may run a decision again after rolling back a group (decisions are pure):
      // what counts is what the committed ones saw.
      expect(seen.slice(-2)).toEqual([undefined, 1]);
      expect((await store().relay.threadEvents('tc', 10)).map((e) => e.id)).toEqual(['c1', 'c3']);
      expect((await store().relay.getThread('tc'))?.version).toBe(2);
    });

    it('listEvents filters by seq, ts, liveness, recipient, sender, type and thread, and pages', async () => {
      await store().relay.appendEvent(relayEnvelope('a', { ts: T0 - 10, threadId: 'tA' }), open);
      await store().relay.appendEvent(
        relayEnvelope('b', {
          type: 'OFFER',
          sender: 'did:key:zAgent',
          recipient: 'did:key:zClient',
          threadId: 'tA',
          expiresAt: T0 + 10,
        }),
        open,
      );
      await store().relay.appendEvent(relayEnvelope('c', { threadId: 'tC' }), open);
      const ids = async (q: Partial<Parameters<Store['relay']['listEvents']>[0]>) =>
        (await store().relay.listEvents({ limit: 10, ...q })).events.map((e) => e.id);
      expect(await ids({})).toEqual(['a', 'b', 'c']);
      const [a] = (await store().relay.listEvents({ limit: 1 })).events;
      expect(await ids({ afterSeq: a!.seq })).toEqual(['b', 'c']);
      expect(await ids({ afterTs: T0 - 10 })).toEqual(['b', 'c']);
      expect(await ids({ afterTs: T0 })).toEqual([]); // after this time, not at it (Agora §7.2)
      expect(await ids({ liveAt: T0 + 11 })).toEqual(['a', 'c']);
      expect(await ids({ recipient: 'did:key:zClient' })).toEqual(['b']);
      expect(await ids({ sender: 'did:key:zAgent' })).toEqual(['b']);
      expect(await ids({ type: 'OFFER' })).toEqual(['b']);
      expect(await ids({ threadId: 'tA' })).toEqual(['a', 'b']);
      const page = await store().relay.listEvents({ limit: 2 });
      expect([page.events.length, page.hasMore, page.headSeq]).toEqual([2, true, await store().relay.headSeq()]);
      await expect(store().relay.listEvents({ limit: 0 })).rejects.toThrow(RangeError);
    });

    it('updateThread is a compare-and-set on the version; due threads are listed by deadline', async () => {
      await store().relay.appendEvent(relayEnvelope('e1', { threadId: 't1' }), open);
      const thread = (await store().relay.getThread('t1'))!;
      expect(await store().relay.listDueThreads(T0 + 1000, 10)).toEqual([]);
      expect((await store().relay.listDueThreads(T0 + 1001, 10)).map((t) => t.threadId)).toEqual(['t1']);
      const ended: ThreadState = {
        ...pending('t1'),
        status: 'ERROR',
        ended: { type: 'timeout', phase: 'no_accept', from: 'PENDING', at: T0 + 2000 },
      } as ThreadState;
      const results = await Promise.all(
        [1, 2].map(() =>
          store().relay.updateThread('t1', thread.version, { state: ended, deadlineAt: null }, T0 + 2000),
        ),
      );
      expect(results.sort()).toEqual([false, true]);
      expect(await store().relay.getThread('t1')).toMatchObject({
        version: thread.version + 1,
        deadlineAt: null,
        updatedAt: T0 + 2000,
        state: { status: 'ERROR' },
      });
      expect(await store().relay.listDueThreads(T0 + 10_000, 10)).toEqual([]);
    });

    it('listThreads finds threads by party and status, newest activity first', async () => {
      const decideFor =
        (client: string): ThreadDecision =>
        (thread) => ({ ok: true, value: { state: pending(thread?.threadId ?? '', client), deadlineAt: null } });
      await store().relay.appendEvent(
        relayEnvelope('e1', { threadId: 't1', receivedAt: T0 }),
        decideFor('did:key:zOne'),
      );
      await store().relay.appendEvent(
        relayEnvelope('e2', { threadId: 't2', receivedAt: T0 + 1 }),
        decideFor('did:key:zTwo'),
      );
      expect((await store().relay.listThreads({ limit: 10 })).map((t) => t.threadId)).toEqual(['t2', 't1']);
      expect((await store().relay.listThreads({ party: 'did:key:zOne', limit: 10 })).map((t) => t.threadId)).toEqual([
        't1',
      ]);
      expect((await store().relay.listThreads({ party: 'did:key:zAgent', limit: 10 })).map((t) => t.threadId)).toEqual([
        't2',
        't1',
      ]);
      expect((await store().relay.listThreads({ party: 'did:key:z%', limit: 10 })).map((t) => t.threadId)).toEqual([]);
      expect(await store().relay.listThreads({ status: 'COMPLETED', limit: 10 })).toEqual([]);
    });

    it('register keeps the newest registration per DID; an older one stores nothing', async () => {
      const reg = (id: string, ts: number) => relayEnvelope(id, { kind: 'registration', ts });
      expect(await store().relay.register(reg('r2', T0), directoryRecord('did:key:zA', T0, 'r2', 'second'))).toBe(
        'stored',
      );
      expect(await store().relay.register(reg('r2', T0), directoryRecord('did:key:zA', T0, 'r2', 'second'))).toBe(
        'duplicate',
      );
      expect(
        await store().relay.register(reg('r1', T0 - 1), directoryRecord('did:key:zA', T0 - 1, 'r1', 'first')),
      ).toBe('stale');
      expect(await store().relay.findDigest('r1')).toBeUndefined();
      expect(
        await store().relay.register(reg('r3', T0 + 1), directoryRecord('did:key:zA', T0 + 1, 'r3', 'third')),
      ).toBe('stored');
      expect(await store().relay.getRegistration('did:key:zA')).toMatchObject({
        manifest: { name: 'third' },
        envelopeId: 'r3',
      });
      expect((await store().relay.listRegistrations()).map((r) => r.did)).toEqual(['did:key:zA']);
      // Registrations are not events.
      expect((await store().relay.listEvents({ limit: 10 })).events).toEqual([]);
    });

    it('lastEventAt reports when each sender last had an event accepted', async () => {
      await store().relay.appendEvent(relayEnvelope('e1', { sender: 'did:key:zA', receivedAt: T0 }), open);
      await store().relay.appendEvent(
        relayEnvelope('e2', { sender: 'did:key:zA', receivedAt: T0 + 50, threadId: 't2' }),
        open,
      );
      const seen = await store().relay.lastEventAt(['did:key:zA', 'did:key:zB']);
      expect([...seen]).toEqual([['did:key:zA', T0 + 50]]);
    });
  });
}
