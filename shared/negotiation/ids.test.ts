import { describe, expect, it } from 'vitest';
import { decodeBase64url } from '../crypto/base64url';
import { newId, newSaltSeed, ulid } from './ids';
import { AgreementId, NegotiationId, ProposalId, SaltSeed } from './primitives';

const zeros = (n: number) => new Uint8Array(n);
const ones = (n: number) => new Uint8Array(n).fill(0xff);

describe('ids', () => {
  it('mints ULIDs: 10 time characters then 16 random ones, Crockford base32', () => {
    expect(ulid(0, zeros)).toBe('0'.repeat(26));
    expect(ulid(2 ** 48 - 1, ones)).toBe('7ZZZZZZZZZ' + 'Z'.repeat(16));
    // The ULID spec's example time, 1469918176385 ms, encodes as 01ARYZ6S41.
    expect(ulid(1469918176385, zeros).slice(0, 10)).toBe('01ARYZ6S41');
  });

  it('sorts by time', () => {
    expect(ulid(1000, ones) < ulid(1001, zeros)).toBe(true);
  });

  it('refuses times outside 48 bits and short random sources', () => {
    expect(() => ulid(-1)).toThrow(RangeError);
    expect(() => ulid(2 ** 48)).toThrow(RangeError);
    expect(() => ulid(1.5)).toThrow(RangeError);
    expect(() => ulid(0, () => zeros(3))).toThrow(RangeError);
  });

  it('prefixed ids and salt seeds match the wire schemas', () => {
    expect(NegotiationId.safeParse(newId('neg', Date.UTC(2026, 4, 3))).success).toBe(true);
    expect(ProposalId.safeParse(newId('prp', 0, ones)).success).toBe(true);
    expect(AgreementId.safeParse(newId('agr', 0)).success).toBe(true);
    const seed = newSaltSeed();
    expect(SaltSeed.safeParse(seed).success).toBe(true);
    expect(decodeBase64url(seed)).toHaveLength(32);
    expect(newSaltSeed(zeros)).toBe('A'.repeat(43));
  });
});
