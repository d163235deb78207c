import { describe, expect, it } from 'vitest';
import { generateAgentPassword, hashPassword, verifyPassword } from './password';

describe('agent passwords (scrypt)', () => {
  it('hashes into scrypt$16384$8$1$<16-byte salt>$<32-byte key>, base64url', async () => {
    const stored = await hashPassword('correct horse');
    const parts = stored.split('$');
    expect(parts.slice(0, 4)).toEqual(['scrypt', '16384', '8', '1']);
    expect(parts).toHaveLength(6);
    expect(Buffer.from(parts[4]!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(parts[5]!, 'base64url')).toHaveLength(32);
    expect(parts[4]).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parts[5]).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts: the same password hashes differently each time, and both verify', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', a)).toBe(true);
    expect(await verifyPassword('same', b)).toBe(true);
  });

  it('verifies a hash made with other parameters in the accepted range', async () => {
    // Produced independently with node:crypto scryptSync('pw', salt, 32, { N: 1024, r: 4, p: 2 }).
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.alloc(16, 7);
    const key = scryptSync('pw', salt, 32, { N: 1024, r: 4, p: 2 });
    const stored = `scrypt$1024$4$2$${salt.toString('base64url')}$${key.toString('base64url')}`;
    expect(await verifyPassword('pw', stored)).toBe(true);
    expect(await verifyPassword('px', stored)).toBe(false);
  });

  it.each([
    ['not a hash'],
    ['scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA'],
    ['scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'], // N not a power of two
    ['scrypt$67108864$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'], // N too large
    ['scrypt$16384$0$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['bcrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ])('refuses a malformed stored hash without throwing: %s', async (stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false);
  });

  it('generates 32 random bytes as base64url, different every time', () => {
    const a = generateAgentPassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(generateAgentPassword()).not.toBe(a);
  });
});
