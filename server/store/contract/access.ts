// The Store contract, its access records: agent credentials, operators and their one-time
// enrollment, login challenges (consumed once) and sessions.
// store-suite.ts composes the parts under one describe; `store()` is the current test's fresh store.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../store';
import { T0 } from './fixtures';

export function describeAccessContract(store: () => Store): void {
  describe('agent credentials', () => {
    it('puts, replaces, lists in id order and removes credentials', async () => {
      await store().access.putAgentCredential({ agentId: 'zeta', passwordHash: 'scrypt$a', createdAt: T0 });
      await store().access.putAgentCredential({ agentId: 'alpha', passwordHash: 'scrypt$b', createdAt: T0 });
      expect(await store().access.getAgentCredential('zeta')).toEqual({
        agentId: 'zeta',
        passwordHash: 'scrypt$a',
        createdAt: T0,
        suspended: null,
        disconnectedAt: null,
      });
      await store().access.putAgentCredential({ agentId: 'zeta', passwordHash: 'scrypt$c', createdAt: T0 + 1 });
      expect((await store().access.getAgentCredential('zeta'))?.passwordHash).toBe('scrypt$c');
      expect((await store().access.listAgentCredentials()).map((c) => c.agentId)).toEqual(['alpha', 'zeta']);
      expect(await store().access.removeAgentCredential('zeta')).toBe(true);
      expect(await store().access.removeAgentCredential('zeta')).toBe(false);
      expect(await store().access.getAgentCredential('zeta')).toBeUndefined();
    });

    it('suspends and resumes; a rotation keeps the suspension; unknown agents change nothing', async () => {
      await store().access.putAgentCredential({ agentId: 'zeta', passwordHash: 'scrypt$a', createdAt: T0 });
      const suspension = { at: T0 + 5, by: 'did:key:zF', reason: 'flooding the room' };
      expect(await store().access.setAgentSuspension('zeta', suspension)).toBe(true);
      expect(await store().access.setAgentSuspension('nobody', suspension)).toBe(false);
      expect((await store().access.getAgentCredential('zeta'))?.suspended).toEqual(suspension);
      await store().access.putAgentCredential({ agentId: 'zeta', passwordHash: 'scrypt$b', createdAt: T0 + 9 });
      const rotated = await store().access.getAgentCredential('zeta');
      expect(rotated).toMatchObject({ passwordHash: 'scrypt$b', suspended: suspension });
      expect((await store().access.listAgentCredentials())[0]?.suspended).toEqual(suspension);
      expect(await store().access.setAgentSuspension('zeta', null)).toBe(true);
      expect((await store().access.getAgentCredential('zeta'))?.suspended).toBeNull();
      expect(await store().access.getAgentCredential('nobody')).toBeUndefined();
    });

    it('reads the credentials of many agents at once, leaving out those without one', async () => {
      await store().access.putAgentCredential({ agentId: 'zeta', passwordHash: 'sha256$z', createdAt: T0 });
      await store().access.putAgentCredential({ agentId: 'alpha', passwordHash: 'sha256$a', createdAt: T0 });
      await store().access.putAgentCredential({ agentId: 'beta', passwordHash: 'sha256$b', createdAt: T0 });
      const got = await store().access.getAgentCredentials(['zeta', 'nobody', 'alpha', "it's"]);
      expect(got.map((c) => c.agentId).sort()).toEqual(['alpha', 'zeta']);
      expect(got.find((c) => c.agentId === 'zeta')).toEqual(await store().access.getAgentCredential('zeta'));
      expect(await store().access.getAgentCredentials([])).toEqual([]);
    });

    it('pages credentials in id order by keyset and id prefix, and counts them and the suspended', async () => {
      const ids = ['b.2', 'a.1', 'b.10', 'b', 'b\u{10FFFF}x', 'b\u{10FFFF}', 'c', 'bé', 'b.1', 'ba'];
      for (const agentId of ids)
        await store().access.putAgentCredential({ agentId, passwordHash: 'sha256$x', createdAt: T0 });
      await store().access.setAgentSuspension('b.2', { at: T0, by: 'cli', reason: 'quiet' });
      const page = async (p: Parameters<Store['access']['pageAgentCredentials']>[0]) =>
        (await store().access.pageAgentCredentials(p)).map((c) => c.agentId);
      // Code point order, as both engines compare ids.
      const ordered = ['a.1', 'b', 'b.1', 'b.10', 'b.2', 'ba', 'bé', 'b\u{10FFFF}', 'b\u{10FFFF}x', 'c'];
      expect(await page({ limit: 100 })).toEqual(ordered);
      expect(await page({ limit: 3 })).toEqual(ordered.slice(0, 3));
      expect(await page({ limit: 3, after: 'b.1' })).toEqual(['b.10', 'b.2', 'ba']);
      expect(await page({ limit: 100, after: 'c' })).toEqual([]);
      expect(await page({ limit: 100, prefix: 'b.' })).toEqual(['b.1', 'b.10', 'b.2']);
      expect(await page({ limit: 100, prefix: 'b.1' })).toEqual(['b.1', 'b.10']);
      expect(await page({ limit: 1, prefix: 'b.1', after: 'b.1' })).toEqual(['b.10']);
      expect(await page({ limit: 100, prefix: 'b\u{10FFFF}' })).toEqual(['b\u{10FFFF}', 'b\u{10FFFF}x']);
      expect(await page({ limit: 100, prefix: 'b' })).toEqual(ordered.slice(1, 9));
      expect(await page({ limit: 100, prefix: 'zz' })).toEqual([]);
      expect((await store().access.pageAgentCredentials({ limit: 1, prefix: 'b.2' }))[0]).toEqual(
        await store().access.getAgentCredential('b.2'),
      );
      expect(await store().access.countAgentCredentials()).toEqual({ total: ids.length, suspended: 1 });
      await expect(store().access.pageAgentCredentials({ limit: 0 })).rejects.toThrow(RangeError);
      await expect(store().access.pageAgentCredentials({ limit: 1001 })).rejects.toThrow(RangeError);
    });

    it('counts none when no agent has a credential', async () => {
      expect(await store().access.countAgentCredentials()).toEqual({ total: 0, suspended: 0 });
      expect(await store().access.pageAgentCredentials({ limit: 10 })).toEqual([]);
    });

    it('upgrades a hash only while it is still the one read, keeping the suspension and the marker', async () => {
      await store().access.putAgentCredential({ agentId: 'zeta', passwordHash: 'scrypt$a', createdAt: T0 });
      const suspension = { at: T0 + 5, by: 'cli', reason: 'quiet' };
      await store().access.setAgentSuspension('zeta', suspension);
      await store().access.markAgentDisconnected('zeta', T0 + 7);
      expect(await store().access.upgradeAgentPasswordHash('zeta', 'scrypt$a', 'sha256$a')).toBe(true);
      expect(await store().access.getAgentCredential('zeta')).toEqual({
        agentId: 'zeta',
        passwordHash: 'sha256$a',
        createdAt: T0,
        suspended: suspension,
        disconnectedAt: T0 + 7,
      });
      // Rotated meanwhile: the rotation stands.
      await store().access.putAgentCredential({ agentId: 'zeta', passwordHash: 'scrypt$b', createdAt: T0 + 9 });
      expect(await store().access.upgradeAgentPasswordHash('zeta', 'sha256$a', 'sha256$x')).toBe(false);
      expect((await store().access.getAgentCredential('zeta'))?.passwordHash).toBe('scrypt$b');
      expect(await store().access.upgradeAgentPasswordHash('nobody', 'scrypt$a', 'sha256$a')).toBe(false);
    });

    it('moves the disconnect marker forward on every mark, even within one millisecond', async () => {
      await store().access.putAgentCredential({ agentId: 'zeta', passwordHash: 'scrypt$a', createdAt: T0 });
      expect(await store().access.markAgentDisconnected('zeta', T0 + 10)).toBe(true);
      expect((await store().access.getAgentCredential('zeta'))?.disconnectedAt).toBe(T0 + 10);
      expect(await store().access.markAgentDisconnected('zeta', T0 + 10)).toBe(true);
      expect((await store().access.getAgentCredential('zeta'))?.disconnectedAt).toBe(T0 + 11);
      expect(await store().access.markAgentDisconnected('zeta', T0 + 50)).toBe(true);
      expect((await store().access.getAgentCredential('zeta'))?.disconnectedAt).toBe(T0 + 50);
      await store().access.putAgentCredential({ agentId: 'zeta', passwordHash: 'scrypt$b', createdAt: T0 + 60 });
      expect((await store().access.getAgentCredential('zeta'))?.disconnectedAt).toBe(T0 + 50);
      expect(await store().access.markAgentDisconnected('nobody', T0)).toBe(false);
    });
  });

  describe('operators and enrollment', () => {
    it('puts operators; a second put changes the role and keeps createdAt', async () => {
      await store().access.putOperator({ did: 'did:key:zB', role: 'observer', createdAt: T0 + 1 });
      await store().access.putOperator({ did: 'did:key:zA', role: 'facilitator', createdAt: T0 });
      await store().access.putOperator({ did: 'did:key:zB', role: 'facilitator', createdAt: T0 + 99 });
      expect(await store().access.getOperator('did:key:zB')).toEqual({
        did: 'did:key:zB',
        role: 'facilitator',
        createdAt: T0 + 1,
        name: null,
      });
      expect(await store().access.getOperator('did:key:zNobody')).toBeUndefined();
      expect((await store().access.listOperators()).map((o) => o.did)).toEqual(['did:key:zA', 'did:key:zB']);
    });

    it('reads many operators at once, leaving out dids that are no operator', async () => {
      await store().access.putOperator({ did: 'did:key:zA', role: 'observer', createdAt: T0, name: 'Ana' });
      await store().access.putOperator({ did: 'did:key:zB', role: 'facilitator', createdAt: T0 });
      const got = await store().access.getOperators(['did:key:zB', 'cli', 'did:key:zA', 'did:key:zA']);
      expect(got.sort((x, y) => x.did.localeCompare(y.did))).toEqual([
        await store().access.getOperator('did:key:zA'),
        await store().access.getOperator('did:key:zB'),
      ]);
      expect(await store().access.getOperators([])).toEqual([]);
    });

    it('keeps a display name: set at enrollment, kept by a put without one, changed, cleared', async () => {
      await store().access.putOperator({ did: 'did:key:zA', role: 'observer', createdAt: T0, name: 'Ana' });
      expect((await store().access.getOperator('did:key:zA'))?.name).toBe('Ana');
      // Enrolling again with a new role and no name keeps the name.
      await store().access.putOperator({ did: 'did:key:zA', role: 'facilitator', createdAt: T0 + 5 });
      expect(await store().access.getOperator('did:key:zA')).toEqual({
        did: 'did:key:zA',
        role: 'facilitator',
        createdAt: T0,
        name: 'Ana',
      });
      expect(await store().access.setOperatorName('did:key:zA', 'Ana Lima 🛰️')).toBe(true);
      expect((await store().access.listOperators())[0]?.name).toBe('Ana Lima 🛰️');
      expect(await store().access.setOperatorName('did:key:zA', null)).toBe(true);
      expect((await store().access.getOperator('did:key:zA'))?.name).toBeNull();
      expect(await store().access.setOperatorName('did:key:zNobody', 'Ben')).toBe(false);
      expect(await store().access.getOperator('did:key:zNobody')).toBeUndefined();
    });

    it('refuses a name that breaks the rule, before either engine writes it', async () => {
      await store().access.putOperator({ did: 'did:key:zA', role: 'observer', createdAt: T0, name: 'Ana' });
      const refused = ['', '   ', ' Ana', 'A'.repeat(61), 'Ana\u0000', 'Ana\nBen', '\u202eanA', 'Ana\u2066'];
      for (const name of refused) {
        await expect(store().access.setOperatorName('did:key:zA', name)).rejects.toThrow(RangeError);
        await expect(
          store().access.putOperator({ did: 'did:key:zB', role: 'observer', createdAt: T0, name }),
        ).rejects.toThrow(RangeError);
      }
      expect((await store().access.getOperator('did:key:zA'))?.name).toBe('Ana');
      expect(await store().access.getOperator('did:key:zB')).toBeUndefined();
      // 60 characters counted as people count them, not UTF-16 units.
      expect(await store().access.setOperatorName('did:key:zA', '🛰'.repeat(60))).toBe(true);
    });

    it('consumes an enrollment token once, and never after it expired', async () => {
      await store().access.createEnrollment('hash-1', 'observer', T0 + 1000);
      await store().access.createEnrollment('hash-2', 'facilitator', T0 + 1000);
      expect(await store().access.consumeEnrollment('hash-1', T0)).toBe('observer');
      expect(await store().access.consumeEnrollment('hash-1', T0)).toBeUndefined();
      expect(await store().access.consumeEnrollment('unknown', T0)).toBeUndefined();
      expect(await store().access.consumeEnrollment('hash-2', T0 + 1000)).toBeUndefined();
    });

    it('says why a token is refused: unknown, used (kept a week past expiry), expired', async () => {
      await store().access.createEnrollment('hash-u', 'observer', T0 + 1000, {
        createdAt: T0,
        createdBy: 'did:key:zA',
      });
      await store().access.createEnrollment('hash-e', 'observer', T0 + 10);
      expect(await store().access.consumeEnrollment('hash-u', T0, 'did:key:zB')).toBe('observer');
      expect(await store().access.consumeEnrollment('hash-u', T0 + 1)).toBeUndefined();
      expect(await store().access.enrollmentRefusal('hash-u', T0 + 1)).toBe('used');
      expect(await store().access.consumeEnrollment('hash-e', T0 + 10)).toBeUndefined();
      expect(await store().access.enrollmentRefusal('hash-e', T0 + 10)).toBe('expired');
      expect(await store().access.enrollmentRefusal('nothing', T0)).toBe('unknown');
      // A week after expiry both are forgotten by the next consume.
      await store().access.consumeEnrollment('other', T0 + 1000 + 7 * 24 * 3_600_000);
      expect(await store().access.enrollmentRefusal('hash-u', T0 + 1000 + 7 * 24 * 3_600_000)).toBe('unknown');
    });

    it('lists pending links newest first without their token, and revokes one by id', async () => {
      await store().access.createEnrollment('a'.repeat(64), 'observer', T0 + 1000, {
        createdAt: T0,
        createdBy: 'did:key:zA',
      });
      await store().access.createEnrollment('b'.repeat(64), 'facilitator', T0 + 1000, {
        createdAt: T0 + 1,
        createdBy: 'did:key:zA',
      });
      await store().access.createEnrollment('c'.repeat(64), 'observer', T0 + 5);
      await store().access.consumeEnrollment('a'.repeat(64), T0);
      const pending = await store().access.listPendingInvites(T0 + 10);
      expect(pending).toEqual([
        { id: 'b'.repeat(16), role: 'facilitator', expiresAt: T0 + 1000, createdAt: T0 + 1, createdBy: 'did:key:zA' },
      ]);
      expect(await store().access.revokeInvite('a'.repeat(16))).toBe(false);
      expect(await store().access.revokeInvite("x' OR 1=1 --")).toBe(false);
      expect(await store().access.revokeInvite('b'.repeat(16))).toBe(true);
      expect(await store().access.listPendingInvites(T0 + 10)).toEqual([]);
      expect(await store().access.consumeEnrollment('b'.repeat(64), T0 + 10)).toBeUndefined();
    });

    it('changes a role and removes an operator with their sessions', async () => {
      await store().access.putOperator({ did: 'did:key:zA', role: 'facilitator', createdAt: T0, name: 'Ana' });
      await store().access.createSession('s-1', { did: 'did:key:zA', role: 'facilitator', expiresAt: T0 + 1000 });
      expect(await store().access.setOperatorRole('did:key:zA', 'observer')).toBe(true);
      expect(await store().access.getOperator('did:key:zA')).toMatchObject({ role: 'observer', name: 'Ana' });
      expect((await store().access.getSession('s-1', T0))?.role).toBe('observer');
      expect(await store().access.setOperatorRole('did:key:zNobody', 'observer')).toBe(false);
      expect(await store().access.removeOperator('did:key:zA')).toBe(true);
      expect(await store().access.removeOperator('did:key:zA')).toBe(false);
      expect(await store().access.getSession('s-1', T0)).toBeUndefined();
      expect(await store().access.getOperator('did:key:zA')).toBeUndefined();
    });

    it('hands an enrollment token to exactly one of many concurrent consumers', async () => {
      await store().access.createEnrollment('hash-1', 'facilitator', T0 + 1000);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store().access.consumeEnrollment('hash-1', T0)),
      );
      expect(results.filter((r) => r === 'facilitator')).toHaveLength(1);
      expect(results.filter((r) => r === undefined)).toHaveLength(19);
    });
  });

  describe('server heartbeats', () => {
    it('keeps one beat per instance, answers the recent ones newest first, forgets a stopped one', async () => {
      await store().access.beatServer({ instance: 'i-1', baseUrl: 'http://127.0.0.1:8787', pid: 10, beatAt: T0 });
      await store().access.beatServer({ instance: 'i-2', baseUrl: 'http://127.0.0.1:9000', pid: 11, beatAt: T0 + 5 });
      await store().access.beatServer({ instance: 'i-1', baseUrl: 'http://127.0.0.1:8787', pid: 10, beatAt: T0 + 9 });
      expect((await store().access.liveServers(T0 + 1)).map((b) => [b.instance, b.beatAt])).toEqual([
        ['i-1', T0 + 9],
        ['i-2', T0 + 5],
      ]);
      expect((await store().access.liveServers(T0 + 6)).map((b) => b.instance)).toEqual(['i-1']);
      await store().access.forgetServer('i-1');
      expect(await store().access.liveServers(T0 + 6)).toEqual([]);
    });
  });

  describe('activity log', () => {
    const entry = (action: string, actorDid: string, details: Record<string, unknown>, roomId: string | null = null) =>
      store().access.appendAudit({ at: T0, actorDid, action, roomId, messageId: null, details });

    it('derives kind and target when written, and filters by each, newest first, keyset by id', async () => {
      await entry('agent.create', 'did:key:zA', { agentId: 'bot-1' });
      await entry('agent.suspend', 'did:key:zB', { agentId: 'bot-1', reason: 'flooding' });
      await entry('operator.invite', 'did:key:zA', { role: 'observer' });
      await entry('operator.enroll', 'did:key:zC', { role: 'observer' });
      await entry('room.mic_grant', 'did:key:zA', { agent_id: 'bot-2' }, 'ops');
      await entry('review.approve', 'did:key:zB', { agentId: 'bot-1' }, 'ops');
      const all = await store().access.listActivity({ limit: 10 });
      expect(all.map((e) => [e.action, e.kind, e.target])).toEqual([
        ['review.approve', 'review', 'bot-1'],
        ['room.mic_grant', 'room', 'bot-2'],
        ['operator.enroll', 'operator', 'did:key:zC'],
        ['operator.invite', 'operator', null],
        ['agent.suspend', 'agent', 'bot-1'],
        ['agent.create', 'agent', 'bot-1'],
      ]);
      const actions = async (f: Omit<Parameters<Store['access']['listActivity']>[0], 'limit'>) =>
        (await store().access.listActivity({ limit: 10, ...f })).map((e) => e.action);
      expect(await actions({ target: 'bot-1' })).toEqual(['review.approve', 'agent.suspend', 'agent.create']);
      expect(await actions({ actorDid: 'did:key:zB' })).toEqual(['review.approve', 'agent.suspend']);
      expect(await actions({ kind: 'operator' })).toEqual(['operator.enroll', 'operator.invite']);
      expect(await actions({ roomId: 'ops', target: 'bot-2' })).toEqual(['room.mic_grant']);
      const first = await store().access.listActivity({ limit: 2, target: 'bot-1' });
      const next = await store().access.listActivity({ limit: 2, target: 'bot-1', before: first.at(-1)!.id });
      expect(next.map((e) => e.action)).toEqual(['agent.create']);
      await expect(store().access.listActivity({ limit: 0 })).rejects.toThrow(RangeError);
    });
  });

  it('reads the newest agent action on each of many agents at once (decisions-server.md §87)', async () => {
    const entry = (action: string, details: Record<string, unknown>) =>
      store().access.appendAudit({ at: T0, actorDid: 'did:key:zA', action, roomId: null, messageId: null, details });
    await entry('agent.create', { agentId: 'bot-1' });
    const suspended = await entry('agent.suspend', { agentId: 'bot-1', reason: 'flooding' });
    // Newer entries naming bot-1 that are no agent action are passed over.
    await entry('review.approve', { agentId: 'bot-1' });
    await entry('room.mic_grant', { agent_id: 'bot-1' });
    const created = await entry('agent.create', { agentId: 'bot-2' });
    await entry('review.approve', { agentId: 'bot-3' });
    const last = await store().access.lastAgentActivity(['bot-2', 'bot-1', 'bot-3', 'nobody', 'bot-1']);
    expect(last.sort((a, b) => a.id - b.id)).toEqual([
      { ...suspended, kind: 'agent', target: 'bot-1' },
      { ...created, kind: 'agent', target: 'bot-2' },
    ]);
    expect(await store().access.lastAgentActivity([])).toEqual([]);
    const many = Array.from({ length: 1001 }, (_, i) => `bot-${i}`);
    await expect(store().access.lastAgentActivity(many)).rejects.toThrow(RangeError);
  });

  describe('login challenges', () => {
    it('consumes a live challenge once, returning its expiry', async () => {
      await store().access.createChallenge('nonce-1', T0 + 60_000);
      expect(await store().access.consumeChallenge('nonce-1', T0)).toBe(T0 + 60_000);
      expect(await store().access.consumeChallenge('nonce-1', T0)).toBeUndefined();
      expect(await store().access.consumeChallenge('never-issued', T0)).toBeUndefined();
    });

    it('refuses an expired challenge', async () => {
      await store().access.createChallenge('nonce-1', T0 + 60_000);
      expect(await store().access.consumeChallenge('nonce-1', T0 + 60_000)).toBeUndefined();
    });

    it('hands a challenge to exactly one of many concurrent consumers', async () => {
      await store().access.createChallenge('nonce-1', T0 + 60_000);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store().access.consumeChallenge('nonce-1', T0)),
      );
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    });
  });

  describe('sessions', () => {
    beforeEach(async () => {
      await store().access.putOperator({ did: 'did:key:zA', role: 'facilitator', createdAt: T0 });
    });

    it('finds a session until it expires, and not after delete', async () => {
      await store().access.createSession('token-hash', {
        did: 'did:key:zA',
        role: 'facilitator',
        expiresAt: T0 + 1000,
      });
      expect(await store().access.getSession('token-hash', T0)).toEqual({
        did: 'did:key:zA',
        role: 'facilitator',
        expiresAt: T0 + 1000,
      });
      expect(await store().access.getSession('token-hash', T0 + 999)).toBeDefined();
      expect(await store().access.getSession('token-hash', T0 + 1000)).toBeUndefined();
      expect(await store().access.getSession('other-hash', T0)).toBeUndefined();
      await store().access.deleteSession('token-hash');
      expect(await store().access.getSession('token-hash', T0)).toBeUndefined();
      await store().access.deleteSession('token-hash'); // deleting twice is harmless
    });

    it("reports the operator's current role, so a role change applies to open sessions", async () => {
      await store().access.createSession('token-hash', {
        did: 'did:key:zA',
        role: 'facilitator',
        expiresAt: T0 + 1000,
      });
      await store().access.putOperator({ did: 'did:key:zA', role: 'observer', createdAt: T0 });
      expect((await store().access.getSession('token-hash', T0))?.role).toBe('observer');
    });
  });
}
