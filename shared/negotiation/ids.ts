// Identifiers in the shape §3.4 shows: a type prefix and a ULID (48-bit millisecond time,
// 80 random bits, Crockford base32), so ids sort by creation time in logs and URLs.
import { randomBytes } from '@noble/hashes/utils.js';
import { base32crockford } from '@scure/base';
import { encodeBase64url } from '../crypto/base64url';

export type RandomSource = (length: number) => Uint8Array;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MAX_ULID_TIME = 2 ** 48 - 1;

export function ulid(now: number, random: RandomSource = randomBytes): string {
  if (!Number.isInteger(now) || now < 0 || now > MAX_ULID_TIME)
    throw new RangeError('now must be an integer millisecond time within 48 bits');
  let time = '';
  for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  const entropy = random(10);
  if (entropy.length !== 10) throw new RangeError('random source must return the requested length');
  return time + base32crockford.encode(entropy);
}

export const newId = <P extends 'neg' | 'prp' | 'agr'>(
  prefix: P,
  now: number,
  random: RandomSource = randomBytes,
): `${P}_${string}` => `${prefix}_${ulid(now, random)}`;

/** The seed an accepter draws for an agreement's per-field salts (field-commitments.ts). */
export const newSaltSeed = (random: RandomSource = randomBytes): string => encodeBase64url(random(32));
