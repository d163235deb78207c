// How an agent's MQTT password is stored and checked (docs/decisions-server.md §71). A password
// the server made (32 random bytes, base64url: generateAgentPassword) is stored as its SHA-256,
// `sha256$<digestB64url>`, and checked in microseconds: with 256 bits of entropy there is nothing
// for a work factor to slow down, while the broker checks a password on every CONNECT. Any other
// password (a person's choice) keeps scrypt (password.ts). A record still in scrypt is upgraded
// on the next connect that proves a server-made password.
import { createHash, timingSafeEqual } from 'node:crypto';
import { hashPassword, verifyPassword } from './password';

/** The shape of a password the server made: 32 bytes, base64url, no padding (43 characters). */
export const AGENT_PASSWORD_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const FAST = /^sha256\$([A-Za-z0-9_-]{43})$/;

const digest = (password: string): Buffer => createHash('sha256').update(password, 'utf8').digest();

/** `sha256$<digest>` of a server-made password. */
export function fastAgentHash(password: string): string {
  if (!AGENT_PASSWORD_PATTERN.test(password)) throw new TypeError('not a server-made agent password');
  return `sha256$${digest(password).toString('base64url')}`;
}

/** The stored form of an agent password: SHA-256 when the server made it, scrypt otherwise. */
export async function hashAgentPassword(password: string): Promise<string> {
  return AGENT_PASSWORD_PATTERN.test(password) ? fastAgentHash(password) : hashPassword(password);
}

export interface AgentPasswordCheck {
  readonly ok: boolean;
  /** Whether the check took the slow path (scrypt): the credential may have changed meanwhile. */
  readonly slow: boolean;
  /** The record's new form when it verified in scrypt with a server-made password. */
  readonly upgradeTo?: string;
}

/**
 * Checks a password against its stored form. The fast form compares two 32-byte digests with
 * timingSafeEqual (equal lengths by construction, so the compare is constant-time); a malformed
 * record verifies nothing.
 */
export async function checkAgentPassword(password: string, stored: string): Promise<AgentPasswordCheck> {
  if (typeof password !== 'string' || typeof stored !== 'string') return { ok: false, slow: false };
  const fast = FAST.exec(stored);
  if (fast) return { ok: timingSafeEqual(digest(password), Buffer.from(fast[1]!, 'base64url')), slow: false };
  const ok = await verifyPassword(password, stored);
  return ok && AGENT_PASSWORD_PATTERN.test(password)
    ? { ok, slow: true, upgradeTo: fastAgentHash(password) }
    : { ok, slow: true };
}
