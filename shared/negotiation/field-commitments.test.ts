import { describe, expect, it } from 'vitest';
import { decodeBase64url } from '../crypto/base64url';
import { sha256Hex } from '../crypto/sha256';
import {
  commitmentHash,
  committedFields,
  digestMap,
  fieldDigest,
  fieldSalt,
  isMaterialPointer,
  MATERIAL_POINTERS,
  termPointer,
  type CommittedAgreement,
} from './field-commitments';
import { alice, bob, SEED } from './test-support/fixtures';

const agreement: CommittedAgreement = {
  agreement_id: 'agr_1',
  negotiation_id: 'neg_1',
  parties: [alice.did, bob.did],
  terms: { b: 2, a: 'x', 'slot/time~zone': 'UTC' },
  effective_from: '2026-05-04T00:00:00Z',
  effective_until: null,
  metadata: { category: 'scheduling' },
  salt_seed: SEED,
};

describe('field commitments (§6 redaction)', () => {
  it('names fields by RFC 6901 JSON Pointer, escaping ~ and /', () => {
    expect(termPointer('a')).toBe('/terms/a');
    expect(termPointer('slot/time~zone')).toBe('/terms/slot~1time~0zone');
  });

  it('commits to the material fields, then each term in key order', () => {
    expect(committedFields(agreement).map(([p]) => p)).toEqual([
      ...MATERIAL_POINTERS,
      '/terms/a',
      '/terms/b',
      '/terms/slot~1time~0zone',
    ]);
    expect(MATERIAL_POINTERS.every(isMaterialPointer)).toBe(true);
    expect(isMaterialPointer('/terms/a')).toBe(false);
  });

  it('derives a distinct 16-byte salt per field from the seed', () => {
    const a = fieldSalt(SEED, '/terms/a');
    expect(decodeBase64url(a)).toHaveLength(16);
    expect(fieldSalt(SEED, '/terms/a')).toBe(a);
    expect(fieldSalt(SEED, '/terms/b')).not.toBe(a);
    expect(fieldSalt('B'.repeat(43), '/terms/a')).not.toBe(a);
  });

  it('a digest is sha256 of the JCS array [salt, pointer, value]', () => {
    expect(fieldDigest('salt', '/terms/a', 'x')).toBe(sha256Hex('["salt","/terms/a","x"]'));
    expect(fieldDigest('salt', '/terms/b', { z: 1, a: [true, null] })).toBe(
      sha256Hex('["salt","/terms/b",{"a":[true,null],"z":1}]'),
    );
  });

  it('the commitment hash is sha256- + hex of the JCS digest map', () => {
    const digests = digestMap(agreement);
    expect(Object.keys(digests)).toHaveLength(9);
    const sortedJson = JSON.stringify(Object.fromEntries(Object.entries(digests).sort(([x], [y]) => (x < y ? -1 : 1))));
    expect(commitmentHash(digests)).toBe(`sha256-${sha256Hex(sortedJson)}`);
  });
});
