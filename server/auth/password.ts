// Agent credentials: agents log in to the broker with their agentId and a password the server issued.
// Stored as `scrypt$N$r$p$<salt>$<hash>` (base64url), never the password. Hashing and checking
// use the asynchronous crypto.scrypt: the broker checks a password on every agent connect, and
// scryptSync would stall the event loop for every other client meanwhile.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const N = 16_384;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
// What verify accepts from a stored hash: enough for stronger future parameters, bounded so a
// tampered row cannot make one check take seconds or gigabytes.
const MAX_N = 1 << 20;
const MAX_R = 32;
const MAX_P = 16;

const FORMAT = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,128})\$([A-Za-z0-9_-]{16,256})$/;

interface Cost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

function derive(password: string, salt: Buffer, keyLength: number, { N, r, p }: Cost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem: scrypt needs 128·N·r bytes; Node's default cap (32 MiB) would refuse N = 2^18.
    scrypt(password, salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Hashes a password into the stored form `scrypt$16384$8$1$<saltB64url>$<hashB64url>`. */
export async function hashPassword(password: string): Promise<string> {
  if (typeof password !== 'string' || password.length === 0) throw new TypeError('password must be a non-empty string');
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/**
 * Checks a password against a stored hash in constant time. A malformed or out-of-bounds
 * stored hash verifies nothing (false) rather than throwing on the broker's connect path.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (typeof password !== 'string' || typeof stored !== 'string') return false;
  const match = FORMAT.exec(stored);
  if (!match) return false;
  const [, n, r, p, saltText, hashText] = match as unknown as [string, string, string, string, string, string];
  const cost = Number(n);
  const blockSize = Number(r);
  const parallel = Number(p);
  // N must be a power of two above 1 (RFC 7914 §2).
  if (cost < 2 || cost > MAX_N || (cost & (cost - 1)) !== 0) return false;
  if (blockSize < 1 || blockSize > MAX_R || parallel < 1 || parallel > MAX_P) return false;
  const salt = Buffer.from(saltText, 'base64url');
  const expected = Buffer.from(hashText, 'base64url');
  if (expected.length < 16) return false;
  const actual = await derive(password, salt, expected.length, { N: cost, r: blockSize, p: parallel });
  return timingSafeEqual(actual, expected);
}

/** A fresh agent password: 32 random bytes, base64url (43 characters, 256 bits). */
export function generateAgentPassword(): string {
  return randomBytes(32).toString('base64url');
}
