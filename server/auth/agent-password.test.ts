import type * as Crypto from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as AgentPassword from './agent-password';
import { generateAgentPassword, hashPassword } from './password';

// The integration project shares each worker's module cache between files, so another file may
// have loaded agent-password.ts with the real node:crypto already: a fresh copy is imported here,
// after the mock is registered, to see which compare it calls.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

let crypto: typeof Crypto;
let checkAgentPassword: typeof AgentPassword.checkAgentPassword;
let fastAgentHash: typeof AgentPassword.fastAgentHash;
let hashAgentPassword: typeof AgentPassword.hashAgentPassword;

beforeAll(async () => {
  vi.resetModules();
  crypto = await import('node:crypto');
  ({ checkAgentPassword, fastAgentHash, hashAgentPassword } = await import('./agent-password'));
});

afterEach(() => vi.mocked(crypto.timingSafeEqual).mockClear());

describe('agent passwords (docs/decisions-server.md §71)', () => {
  it('stores a server-made password as sha256$<32-byte digest>, and checks it on the fast path', async () => {
    const password = generateAgentPassword();
    const stored = await hashAgentPassword(password);
    expect(stored).toMatch(/^sha256\$[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(stored.slice('sha256$'.length), 'base64url')).toHaveLength(32);
    expect(stored).toBe(fastAgentHash(password));
    expect(await checkAgentPassword(password, stored)).toEqual({ ok: true, slow: false });
  });

  it('refuses a wrong password through timingSafeEqual over two 32-byte digests', async () => {
    const stored = fastAgentHash(generateAgentPassword());
    for (const wrong of [generateAgentPassword(), '', 'short', 'x'.repeat(10_000)]) {
      vi.mocked(crypto.timingSafeEqual).mockClear();
      expect(await checkAgentPassword(wrong, stored)).toEqual({ ok: false, slow: false });
      // Every wrong password, whatever its length, is compared the same way: digest against digest.
      expect(crypto.timingSafeEqual).toHaveBeenCalledTimes(1);
      const [a, b] = vi.mocked(crypto.timingSafeEqual).mock.calls[0]!;
      expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
    }
  });

  it('keeps scrypt for a password a person chose, and never offers to upgrade it', async () => {
    const stored = await hashAgentPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$/);
    expect(await checkAgentPassword('correct horse battery', stored)).toEqual({ ok: true, slow: true });
    expect(await checkAgentPassword('correct horse batterz', stored)).toEqual({ ok: false, slow: true });
  });

  it('verifies an old scrypt record of a server-made password and offers its fast form', async () => {
    const password = generateAgentPassword();
    const old = await hashPassword(password);
    expect(await checkAgentPassword(password, old)).toEqual({
      ok: true,
      slow: true,
      upgradeTo: fastAgentHash(password),
    });
    expect(await checkAgentPassword(generateAgentPassword(), old)).toEqual({ ok: false, slow: true });
  });

  it.each([['sha256$short'], ['sha256$' + 'A'.repeat(44)], ['md5$' + 'A'.repeat(43)], ['']])(
    'refuses a malformed stored form without throwing: %s',
    async (stored) => {
      expect((await checkAgentPassword(generateAgentPassword(), stored)).ok).toBe(false);
    },
  );

  it('makes the fast form only of a server-made password', () => {
    expect(() => fastAgentHash('correct horse')).toThrow(TypeError);
  });
});
