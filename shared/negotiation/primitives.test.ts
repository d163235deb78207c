import { describe, expect, it } from 'vitest';
import {
  Category,
  HashString,
  NegotiationId,
  PartyDid,
  Signature,
  Terms,
  Timestamp,
  timeOf,
  toTimestamp,
} from './primitives';
import { alice } from './test-support/fixtures';

const ok = (schema: { safeParse: (v: unknown) => { success: boolean } }, v: unknown) => schema.safeParse(v).success;

describe('primitives', () => {
  it('parties are Ed25519 did:key only', () => {
    expect(ok(PartyDid, alice.did)).toBe(true);
    expect(ok(PartyDid, 'did:web:agent-a.example')).toBe(false);
    expect(ok(PartyDid, 42)).toBe(false);
  });

  it('timestamps are RFC 3339 UTC with Z, calendar-checked', () => {
    expect(ok(Timestamp, '2026-05-10T12:00:00Z')).toBe(true);
    expect(ok(Timestamp, '2026-05-10T12:00:00.123Z')).toBe(true);
    expect(ok(Timestamp, '2026-05-10T12:00:00+02:00')).toBe(false);
    expect(ok(Timestamp, '2026-02-30T12:00:00Z')).toBe(false);
    expect(ok(Timestamp, '20251210T090000Z')).toBe(false);
    expect(timeOf(toTimestamp(1_777_000_000_000))).toBe(1_777_000_000_000);
  });

  it('ids, categories, hashes and signatures have one spelling', () => {
    expect(ok(NegotiationId, 'neg_01HX2QF8GZRP9V3K5YXJW0AQ7M')).toBe(true);
    expect(ok(NegotiationId, 'neg_')).toBe(false);
    expect(ok(NegotiationId, 'prp_1')).toBe(false);
    expect(ok(Category, 'pricing')).toBe(true);
    expect(ok(Category, 'Pricing')).toBe(false);
    expect(ok(HashString, `sha256-${'a'.repeat(64)}`)).toBe(true);
    expect(ok(HashString, `sha256-${'A'.repeat(64)}`)).toBe(false);
    expect(ok(Signature, 'A'.repeat(86))).toBe(true);
    expect(ok(Signature, 'A'.repeat(88))).toBe(false);
  });

  it('terms are a JSON object of JSON values', () => {
    expect(ok(Terms, { a: [1, 'x', null, { b: true }] })).toBe(true);
    expect(ok(Terms, { a: Number.NaN })).toBe(false);
    expect(ok(Terms, [])).toBe(false);
  });
});
