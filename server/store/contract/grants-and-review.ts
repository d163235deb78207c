// The Store contract, its grants and review: mic grants spent atomically (AOR §4), approvals
// that spend and store in one transaction, review items claimed once.
// store-suite.ts composes the parts under one describe; `store()` is the current test's fresh store.
import { describe, expect, it } from 'vitest';
import type { CandidateDecision, CandidateJudgement, CandidateRecord, Store } from '../store';
import { S0, T0, grant, message } from './fixtures';

export function describeGrantsAndReviewContract(store: () => Store): void {
  describe('mic grants', () => {
    it('putGrant stores a fresh grant; getGrant and listGrants find it', async () => {
      const stored = await store().rooms.putGrant(grant());
      expect(stored).toEqual({ ...grant(), spent: 0, endedAt: null, endReason: null });
      expect(await store().rooms.getGrant('r1', 'agent-a', 't1')).toEqual(stored);
      expect(await store().rooms.getGrant('r1', 'agent-a', 't2')).toBeUndefined();
      await store().rooms.putGrant(grant({ roomId: 'r2', grantMessageId: 'g-r2' }));
      await store().rooms.putGrant(grant({ taskId: 't2', grantMessageId: 'g-t2' }));
      await store().rooms.endGrant('r1', 'agent-a', 't2', 'revoked', T0);
      const key = (g: { roomId: string; taskId: string }) => `${g.roomId}/${g.taskId}`;
      expect((await store().rooms.listGrants({})).map(key)).toEqual(['r1/t1', 'r1/t2', 'r2/t1']);
      expect((await store().rooms.listGrants({ roomId: 'r1' })).map(key)).toEqual(['r1/t1', 'r1/t2']);
      expect((await store().rooms.listGrants({ roomId: 'r1', active: true })).map(key)).toEqual(['r1/t1']);
      expect((await store().rooms.listGrants({ active: false })).map(key)).toEqual(['r1/t2']);
    });

    it('spends the budget one message at a time, then refuses with message_limit_exceeded', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 3 }));
      expect(await store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 1)).toEqual({
        ok: true,
        spent: 1,
        remaining: 2,
      });
      expect(await store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 1)).toEqual({
        ok: true,
        spent: 2,
        remaining: 1,
      });
      expect(await store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 1)).toEqual({
        ok: true,
        spent: 3,
        remaining: 0,
      });
      expect(await store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 1)).toEqual({
        ok: false,
        reason: 'message_limit_exceeded',
      });
      expect((await store().rooms.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(3);
    });

    it('refuses without a grant with no_mic_grant', async () => {
      expect(await store().rooms.spendGrant('r1', 'nobody', 't1', S0)).toEqual({ ok: false, reason: 'no_mic_grant' });
      await store().rooms.putGrant(grant());
      expect(await store().rooms.spendGrant('r1', 'agent-a', 'other-task', S0)).toEqual({
        ok: false,
        reason: 'no_mic_grant',
      });
    });

    it('never spends beyond maxMessages under 50 concurrent spends on a budget of 6', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 6 }));
      const results = await Promise.all(
        Array.from({ length: 50 }, () => store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 10)),
      );
      const granted = results.filter((r) => r.ok);
      expect(granted).toHaveLength(6);
      expect(granted.map((r) => (r.ok ? r.spent : 0)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'message_limit_exceeded')).toBe(true);
      expect((await store().rooms.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(6);
    });

    it('is live through the whole second expires_at and refuses after it with mic_grant_expired', async () => {
      await store().rooms.putGrant(grant({ expiresAt: S0 + 60, maxMessages: 10 }));
      expect((await store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 60)).ok).toBe(true);
      expect((await store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 60.999)).ok).toBe(true);
      expect(await store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 61)).toEqual({
        ok: false,
        reason: 'mic_grant_expired',
      });
      expect((await store().rooms.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(2);
    });

    it('lists live grants past their expiry for the sweeper, and not once ended', async () => {
      await store().rooms.putGrant(grant({ taskId: 'short', expiresAt: S0 + 10, grantMessageId: 'g1' }));
      await store().rooms.putGrant(grant({ taskId: 'long', expiresAt: S0 + 1000, grantMessageId: 'g2' }));
      expect(await store().rooms.listExpiredLiveGrants(S0 + 10.5)).toEqual([]);
      const expired = await store().rooms.listExpiredLiveGrants(S0 + 11);
      expect(expired.map((g) => g.taskId)).toEqual(['short']);
      expect(await store().rooms.endGrant('r1', 'agent-a', 'short', 'expired', T0)).toBe(true);
      expect(await store().rooms.listExpiredLiveGrants(S0 + 11)).toEqual([]);
      // Expiry wins over the end, as in shared/aor/grant-check.ts: the agent learns the real cause.
      expect(await store().rooms.spendGrant('r1', 'agent-a', 'short', S0 + 11)).toEqual({
        ok: false,
        reason: 'mic_grant_expired',
      });
    });

    it('endGrant ends a live grant once; spending afterwards is refused with mic_revoked', async () => {
      await store().rooms.putGrant(grant());
      expect(await store().rooms.endGrant('r1', 'agent-a', 't1', 'revoked', T0 + 7)).toBe(true);
      expect(await store().rooms.endGrant('r1', 'agent-a', 't1', 'revoked again', T0 + 8)).toBe(false);
      expect(await store().rooms.endGrant('r1', 'agent-a', 'unknown', 'revoked', T0)).toBe(false);
      expect(await store().rooms.getGrant('r1', 'agent-a', 't1')).toMatchObject({
        endedAt: T0 + 7,
        endReason: 'revoked',
      });
      expect(await store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 1)).toEqual({
        ok: false,
        reason: 'mic_revoked',
      });
    });

    it('endGrant is decided once under concurrency', async () => {
      await store().rooms.putGrant(grant());
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store().rooms.endGrant('r1', 'agent-a', 't1', `r${i}`, T0 + i)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    // Decision (docs/decisions-server.md): a new grant for the same (room, agent, task) replaces
    // the one in force with a fresh budget and lifts an end, as AOR §5.3 gives each grant its
    // own max_messages. A redelivered grant message (same id) or an older one changes nothing,
    // so an MQTT QoS 1 duplicate can never refill a budget.
    it('putGrant with a new grant message replaces the grant: spent resets and an end is lifted', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 2 }));
      await store().rooms.spendGrant('r1', 'agent-a', 't1', S0);
      await store().rooms.spendGrant('r1', 'agent-a', 't1', S0);
      await store().rooms.endGrant('r1', 'agent-a', 't1', 'revoked', T0);
      const replaced = await store().rooms.putGrant(
        grant({ maxMessages: 5, grantMessageId: 'grant-2', grantedAt: S0 + 20, allowedTypes: ['chat'] }),
      );
      expect(replaced).toMatchObject({
        maxMessages: 5,
        spent: 0,
        endedAt: null,
        endReason: null,
        grantMessageId: 'grant-2',
        allowedTypes: ['chat'],
      });
      expect(await store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 21)).toEqual({
        ok: true,
        spent: 1,
        remaining: 4,
      });
    });

    it('putGrant with the grant in force again (redelivery) or an older grant keeps the budget spent', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 2, grantedAt: S0 + 5 }));
      await store().rooms.spendGrant('r1', 'agent-a', 't1', S0 + 6);
      const redelivered = await store().rooms.putGrant(grant({ maxMessages: 2, grantedAt: S0 + 5 }));
      expect(redelivered).toMatchObject({ spent: 1, grantMessageId: 'grant-1' });
      const stale = await store().rooms.putGrant(grant({ maxMessages: 9, grantedAt: S0, grantMessageId: 'grant-0' }));
      expect(stale).toMatchObject({ spent: 1, maxMessages: 2, grantMessageId: 'grant-1' });
    });
  });

  describe('approvals (spend and store in one transaction)', () => {
    const approved = (n: number) => message('r1', n, { topicAgentId: null, messageId: `ok-${n}` });

    it('approveReviewItem claims once, spends and stores; a refusing grant rejects the item', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 1 }));
      const a = await store().rooms.addReviewItem({
        roomId: 'r1',
        agentId: 'agent-a',
        taskId: 't1',
        messageId: 'c1',
        payload: Uint8Array.of(1),
        submittedAt: T0,
      });
      const b = await store().rooms.addReviewItem({
        roomId: 'r1',
        agentId: 'agent-a',
        taskId: 't1',
        messageId: 'c2',
        payload: Uint8Array.of(2),
        submittedAt: T0,
      });
      const both = await Promise.all([
        store().rooms.approveReviewItem(a.id, 'did:key:f', T0 + 5, S0, () => approved(1)),
        store().rooms.approveReviewItem(a.id, 'did:key:g', T0 + 6, S0, () => approved(9)),
      ]);
      expect(both.filter((r) => r !== undefined)).toHaveLength(1);
      expect(both.find((r) => r)?.item).toMatchObject({ status: 'approved', messageId: 'c1' });
      const refused = await store().rooms.approveReviewItem(b.id, 'did:key:f', T0 + 7, S0, () => approved(2));
      expect(refused?.spend).toEqual({ ok: false, reason: 'message_limit_exceeded' });
      expect(refused?.item).toMatchObject({ status: 'rejected', reason: 'message_limit_exceeded' });
      expect((await store().rooms.listMessages({ roomId: 'r1', limit: 10 })).messages.map((m) => m.messageId)).toEqual([
        'ok-1',
      ]);
      expect(await store().rooms.approveReviewItem(b.id, 'did:key:f', T0 + 8, S0, () => approved(3))).toBeUndefined();
    });
  });

  describe('candidates recorded with their decision (recordCandidate)', () => {
    const candidate = (n: number) =>
      message('r1', n, {
        topic: 'rooms/r1/public_candidates',
        topicKind: 'public_candidates',
        topicAgentId: 'agent-a',
        messageId: `c-${n}`,
      });
    const control = (n: number, reason: string) =>
      message('r1', n, {
        topic: 'rooms/r1/control',
        topicKind: 'control',
        type: 'reject',
        messageId: `rej-${n}-${reason}`,
      });
    const key = { agentId: 'agent-a', taskId: 't1' };
    const approve = (n: number) => ({
      grantKey: key,
      decide: (): CandidateDecision => ({
        kind: 'approve',
        agentId: 'agent-a',
        taskId: 't1',
        nowSeconds: S0,
        approved: message('r1', n, { messageId: `c-${n}` }),
        refused: (reason) => control(n, reason),
      }),
    });
    const kinds = async () =>
      (await store().rooms.listMessages({ roomId: 'r1', limit: 100 })).messages.map(
        (m) => `${m.topicKind}:${m.messageId}`,
      );

    it('approves: the candidate, the spend and the approved copy together, in that order', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 2 }));
      const record = await store().rooms.recordCandidate(candidate(1), approve(1));
      expect(record.spend).toEqual({ ok: true, spent: 1, remaining: 1 });
      expect(record.outgoing?.topicKind).toBe('public');
      expect(record.outgoing!.cursor).toBeGreaterThan(record.candidate.cursor);
      expect(await kinds()).toEqual(['public_candidates:c-1', 'public:c-1']);
      expect((await store().rooms.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(1);
    });

    it('decides from the grant and room as the transaction reads them', async () => {
      await store().rooms.ensureRoom({ id: 'r1', name: 'Room 1', moderation: 'review' });
      await store().rooms.putGrant(grant({ maxMessages: 4 }));
      await store().rooms.spendGrant('r1', 'agent-a', 't1', S0);
      const read: unknown[] = [];
      await store().rooms.recordCandidate(candidate(1), {
        grantKey: key,
        decide: (g, room) => {
          read.push(g?.spent, room?.moderation);
          return { kind: 'reject', reject: control(1, 'seen') };
        },
      });
      expect(read).toEqual([1, 'review']);
      // A candidate that did not parse names no grant: nothing is read for it.
      await store().rooms.recordCandidate(candidate(2), {
        grantKey: undefined,
        decide: (g, room) => (read.push(g, room), { kind: 'reject', reject: control(2, 'x') }),
      });
      expect(read.slice(2)).toEqual([undefined, undefined]);
    });

    it('spends a grant once per candidate when candidates of one moment share a commit, and a failed piece beside them spends nothing', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 3 }));
      const seen: (number | undefined)[] = [];
      const watched = (n: number): CandidateJudgement => ({
        ...approve(n),
        decide: (g) => (seen.push(g?.spent), approve(n).decide()),
      });
      const results = await Promise.allSettled([
        store().rooms.recordCandidate(candidate(1), watched(1)),
        store().rooms.recordCandidate(candidate(2), watched(2)),
        // Refused by the database: the whole group is rolled back and run again piece by piece.
        store().rooms.appendMessage(message('r1', 9, { topicKind: 'bogus' as 'public' })),
        store().rooms.recordCandidate(candidate(3), watched(3)),
        store().rooms.recordCandidate(candidate(4), watched(4)),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      const spends = results.flatMap((r) =>
        r.status === 'fulfilled' && r.value && 'decision' in r.value ? [(r.value as CandidateRecord).spend] : [],
      );
      expect(spends).toEqual([
        { ok: true, spent: 1, remaining: 2 },
        { ok: true, spent: 2, remaining: 1 },
        { ok: true, spent: 3, remaining: 0 },
        { ok: false, reason: 'message_limit_exceeded' },
      ]);
      // Each decision saw the spends before it; the last reads of the group are those that count.
      expect(seen.slice(-4)).toEqual([0, 1, 2, 3]);
      expect((await store().rooms.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(3);
      expect(await kinds()).toEqual([
        'public_candidates:c-1',
        'public:c-1',
        'public_candidates:c-2',
        'public:c-2',
        'public_candidates:c-3',
        'public:c-3',
        'public_candidates:c-4',
        'control:rej-4-message_limit_exceeded',
      ]);
      // Spent in a later commit, against what the earlier one wrote.
      expect(await store().rooms.spendGrant('r1', 'agent-a', 't1', S0)).toEqual({
        ok: false,
        reason: 'message_limit_exceeded',
      });
    });

    it('decides a candidate history already holds without storing it again (recovery)', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 1 }));
      const held = await store().rooms.appendMessage(candidate(1));
      const record = await store().rooms.recordCandidate(held, approve(1));
      expect(record.candidate).toEqual(held);
      expect(record.spend).toEqual({ ok: true, spent: 1, remaining: 0 });
      expect(record.outgoing!.cursor).toBeGreaterThan(held.cursor);
      const late = await store().rooms.recordCandidate(await store().rooms.appendMessage(candidate(2)), approve(2));
      expect(late.outgoing).toMatchObject({ topicKind: 'control', messageId: 'rej-2-message_limit_exceeded' });
      expect(await kinds()).toEqual([
        'public_candidates:c-1',
        'public:c-1',
        'public_candidates:c-2',
        'control:rej-2-message_limit_exceeded',
      ]);
      expect((await store().rooms.listRooms()).find((r) => r.id === 'r1')?.messageCount).toBe(4);
    });

    it('never stores more approved copies than the budget under 30 concurrent candidates', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 5 }));
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => store().rooms.recordCandidate(candidate(i), approve(i))),
      );
      expect(results.filter((r) => r.spend?.ok)).toHaveLength(5);
      expect(
        (await store().rooms.listMessages({ roomId: 'r1', topicKinds: ['public'], limit: 100 })).messages,
      ).toHaveLength(5);
      expect((await store().rooms.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(5);
    });

    it('stores the reject instead when the spend is refused, and spends nothing', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 1 }));
      await store().rooms.recordCandidate(candidate(1), approve(1));
      const second = await store().rooms.recordCandidate(candidate(2), approve(2));
      expect(second.spend).toEqual({ ok: false, reason: 'message_limit_exceeded' });
      expect(second.outgoing).toMatchObject({ topicKind: 'control', messageId: 'rej-2-message_limit_exceeded' });
      expect(await kinds()).toEqual([
        'public_candidates:c-1',
        'public:c-1',
        'public_candidates:c-2',
        'control:rej-2-message_limit_exceeded',
      ]);
      expect((await store().rooms.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(1);
    });

    it('files a review item with the candidate and publishes nothing', async () => {
      const record = await store().rooms.recordCandidate(candidate(1), {
        grantKey: key,
        decide: () => ({
          kind: 'review',
          item: {
            roomId: 'r1',
            agentId: 'agent-a',
            taskId: 't1',
            messageId: 'c-1',
            payload: Uint8Array.of(7),
            submittedAt: T0,
          },
        }),
      });
      expect(record.outgoing).toBeUndefined();
      expect(record.reviewItem).toMatchObject({ status: 'pending', messageId: 'c-1' });
      expect(await kinds()).toEqual(['public_candidates:c-1']);
      expect(await store().rooms.listReviewItems('r1', 'pending')).toHaveLength(1);
    });

    it('keeps submission order and never overspends under 40 concurrent candidates on a budget of 5', async () => {
      await store().rooms.putGrant(grant({ maxMessages: 5 }));
      const records = await Promise.all(
        Array.from({ length: 40 }, (_, i) => store().rooms.recordCandidate(candidate(i), approve(i))),
      );
      expect(records.filter((r) => r.spend?.ok)).toHaveLength(5);
      const stored = await kinds();
      expect(stored.filter((k) => k.startsWith('public_candidates:'))).toEqual(
        Array.from({ length: 40 }, (_, i) => `public_candidates:c-${i}`),
      );
      expect(stored.filter((k) => k.startsWith('public:'))).toEqual([
        'public:c-0',
        'public:c-1',
        'public:c-2',
        'public:c-3',
        'public:c-4',
      ]);
      expect((await store().rooms.getGrant('r1', 'agent-a', 't1'))?.spent).toBe(5);
    });
  });

  describe('review items', () => {
    const item = (n: number, roomId = 'r1') => ({
      roomId,
      agentId: 'agent-a',
      taskId: 't1',
      messageId: `cand-${n}`,
      payload: Uint8Array.of(n, 0, 255),
      submittedAt: T0 + n,
    });

    it('adds pending items and lists them by room and status in submission order', async () => {
      const a = await store().rooms.addReviewItem(item(1));
      const b = await store().rooms.addReviewItem(item(2));
      await store().rooms.addReviewItem(item(3, 'r2'));
      expect(a).toMatchObject({
        ...item(1),
        payload: expect.any(Uint8Array),
        status: 'pending',
        decidedBy: null,
        decidedAt: null,
        reason: null,
      });
      expect([...a.payload]).toEqual([1, 0, 255]);
      expect(b.id).toBeGreaterThan(a.id);
      expect((await store().rooms.listReviewItems('r1')).map((i) => i.messageId)).toEqual(['cand-1', 'cand-2']);
      await store().rooms.decideReviewItem(a.id, 'approved', 'did:key:zFac', null, T0 + 10);
      expect((await store().rooms.listReviewItems('r1', 'pending')).map((i) => i.messageId)).toEqual(['cand-2']);
      expect((await store().rooms.listReviewItems('r1', 'approved')).map((i) => i.messageId)).toEqual(['cand-1']);
      // One item by id, only in its own room: who decided it and when.
      expect(await store().rooms.getReviewItem('r1', a.id)).toMatchObject({
        id: a.id,
        status: 'approved',
        decidedBy: 'did:key:zFac',
        decidedAt: T0 + 10,
      });
      expect((await store().rooms.getReviewItem('r1', b.id))?.status).toBe('pending');
      expect(await store().rooms.getReviewItem('r2', a.id)).toBeUndefined();
      expect(await store().rooms.getReviewItem('r1', 987_654)).toBeUndefined();
    });

    it('decides an item once; a second decision returns undefined and changes nothing', async () => {
      const { id } = await store().rooms.addReviewItem(item(1));
      const decided = await store().rooms.decideReviewItem(id, 'rejected', 'did:key:zFac', 'off topic', T0 + 9);
      expect(decided).toMatchObject({
        id,
        status: 'rejected',
        decidedBy: 'did:key:zFac',
        decidedAt: T0 + 9,
        reason: 'off topic',
      });
      expect(await store().rooms.decideReviewItem(id, 'approved', 'did:key:zOther', null, T0 + 10)).toBeUndefined();
      expect(await store().rooms.decideReviewItem(9_999_999, 'approved', null, null, T0)).toBeUndefined();
      expect((await store().rooms.listReviewItems('r1'))[0]).toMatchObject({
        status: 'rejected',
        decidedBy: 'did:key:zFac',
      });
    });

    it('is decided exactly once under concurrent decisions', async () => {
      const { id } = await store().rooms.addReviewItem(item(1));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store().rooms.decideReviewItem(id, i % 2 ? 'approved' : 'expired', `did:key:z${i}`, null, T0 + i),
        ),
      );
      const winners = results.filter((r) => r !== undefined);
      expect(winners).toHaveLength(1);
      expect((await store().rooms.listReviewItems('r1'))[0]).toMatchObject({
        status: winners[0]!.status,
        decidedBy: winners[0]!.decidedBy,
      });
    });
  });
}
