import { describe, expect, it } from 'vitest';
import { DidKeyId, Identifier, UtcTimestamp, formatTimestamp, timestampMs } from './fields';
import { client } from './test-support/fixtures';

describe('Identifier', () => {
  it('accepts the spec example ids and UUIDs', () => {
    for (const id of ['msg_01jqk7z8x8r9q3z5v2w4y6u8', 'thread_01jqk7za', '11111111-1111-1111-1111-111111111111']) {
      expect(Identifier.safeParse(id).success).toBe(true);
    }
  });
  it('refuses empty, spaced, non-ASCII and over-long ids', () => {
    for (const id of ['', 'a b', 'msg\n1', 'méssage', 'x'.repeat(257), 42]) {
      expect(Identifier.safeParse(id).success).toBe(false);
    }
    expect(Identifier.safeParse('x'.repeat(256)).success).toBe(true);
  });
});

describe('UtcTimestamp', () => {
  it('accepts ISO 8601 UTC with seconds, fractions allowed', () => {
    for (const ts of ['2026-02-02T15:30:00Z', '2026-02-02T15:30:00.123Z', '2024-02-29T00:00:00Z']) {
      expect(UtcTimestamp.safeParse(ts).success).toBe(true);
    }
  });
  it('refuses offsets, lowercase, missing seconds and impossible dates', () => {
    for (const ts of [
      '2026-02-02T15:30:00+01:00',
      '2026-02-02t15:30:00z',
      '2026-02-02T15:30Z',
      '2026-02-30T10:00:00Z',
      '2026-02-02 15:30:00Z',
    ]) {
      expect(UtcTimestamp.safeParse(ts).success).toBe(false);
    }
  });
  it('converts to and from epoch milliseconds', () => {
    expect(timestampMs('2026-02-02T15:30:00Z')).toBe(Date.UTC(2026, 1, 2, 15, 30));
    expect(formatTimestamp(Date.UTC(2026, 1, 2, 15, 30))).toBe('2026-02-02T15:30:00.000Z');
    expect(() => timestampMs('yesterday')).toThrow(RangeError);
  });
});

describe('DidKeyId', () => {
  it('accepts Ed25519 did:key and refuses anything else', () => {
    expect(DidKeyId.safeParse(client.did).success).toBe(true);
    expect(DidKeyId.safeParse('did:key:z6MkhaXg').success).toBe(false);
    expect(DidKeyId.safeParse('did:web:example.com').success).toBe(false);
  });
});
