import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { listVectors, readVectorBytes, readVectorText } from '../test-support/vectors';
import { canonicalBytes, canonicalize, canonicalizeWithout } from './jcs';
import { CodedError } from '../errors';

describe('RFC 8785 canonicalization', () => {
  const names = listVectors('jcs/input');

  it('has all six published input/output pairs', () => {
    expect(names).toEqual([
      'arrays.json',
      'french.json',
      'structures.json',
      'unicode.json',
      'values.json',
      'weird.json',
    ]);
  });

  it.each(names)('canonicalizes %s byte for byte', (name) => {
    const input: unknown = JSON.parse(readVectorText(`jcs/input/${name}`));
    expect(canonicalBytes(input)).toEqual(readVectorBytes(`jcs/output/${name}`));
  });

  it('is idempotent on random JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const once = canonicalize(value);
        expect(canonicalize(JSON.parse(once))).toBe(once);
      }),
      { seed: 8785, numRuns: 300 },
    );
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['undefined member', { a: undefined }],
    ['function', () => 1],
    ['bigint', 1n],
    ['class instance', new Date(0)],
  ])('refuses %s with JCS_INVALID', (_label, value) => {
    expect(() => canonicalize(value)).toThrow(CodedError);
    try {
      canonicalize(value);
    } catch (error) {
      expect((error as CodedError).code).toBe('JCS_INVALID');
    }
  });

  it('refuses circular structures', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalize(loop)).toThrow(/circular/);
  });

  it('accepts shared (non-circular) references and null-prototype objects', () => {
    const shared = { x: 1 };
    const bare = Object.assign(Object.create(null) as object, { b: 2, a: 1 });
    expect(canonicalize({ p: shared, q: shared, r: bare })).toBe('{"p":{"x":1},"q":{"x":1},"r":{"a":1,"b":2}}');
  });
});

describe('canonicalizeWithout', () => {
  it('gives the canonical text of the object and of the object without the member, on random objects', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (object, extra) => {
        const field = Object.keys(object)[0] ?? extra;
        const { [field]: _dropped, ...rest } = object;
        const texts = canonicalizeWithout(object, field);
        expect(texts.whole).toBe(canonicalize(object));
        expect(texts.without).toBe(canonicalize(rest));
      }),
      { seed: 8786, numRuns: 300 },
    );
  });

  it('refuses what canonicalize refuses', () => {
    expect(() => canonicalizeWithout({ a: Number.NaN, sig: 'x' }, 'sig')).toThrow(CodedError);
    expect(() => canonicalizeWithout([] as unknown as Record<string, unknown>, 'sig')).toThrow(CodedError);
  });
});
