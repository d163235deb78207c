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

    it('hands an enrollment token to exactly one of many concurrent consumers', async () => {
      await store().access.createEnrollment('hash-1', 'facilitator', T0 + 1000);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store().access.consumeEnrollment('hash-1', T0)),
      );
      expect(results.filter((r) => r === 'facilitator')).toHaveLength(1);
      expect(results.filter((r) => r === undefined)).toHaveLength(19);
    });
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
