import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffTerms, valueAt } from './terms-diff';

describe('diffTerms', () => {
  it('names changed, added and removed top-level terms', () => {
    expect(
      diffTerms(
        { price: '0.0040', terms: 'net 30', old: 1 },
        { price: '0.0045', terms: 'net 30', support: 'business hours' },
      ),
    ).toEqual([
      { pointer: '/old', kind: 'removed', before: 1 },
      { pointer: '/price', kind: 'changed', before: '0.0040', after: '0.0045' },
      { pointer: '/support', kind: 'added', after: 'business hours' },
    ]);
  });

  it('descends into nested objects and arrays, naming the leaf by JSON pointer', () => {
    const before = { sla: { uptime: 99.9, windows: ['mon', 'tue'] } };
    const after = { sla: { uptime: 99.95, windows: ['mon', 'wed', 'thu'] } };
    expect(diffTerms(before, after)).toEqual([
      { pointer: '/sla/uptime', kind: 'changed', before: 99.9, after: 99.95 },
      { pointer: '/sla/windows/1', kind: 'changed', before: 'tue', after: 'wed' },
      { pointer: '/sla/windows/2', kind: 'added', after: 'thu' },
    ]);
  });

  it('escapes ~ and / in keys (RFC 6901)', () => {
    expect(diffTerms({ 'a/b': 1, 'c~d': 1 }, { 'a/b': 2, 'c~d': 2 }).map((c) => c.pointer)).toEqual(['/a~1b', '/c~0d']);
  });

  it('reports a change of type (object to string) as one change of the whole value', () => {
    expect(diffTerms({ x: { y: 1 } }, { x: 'flat' })).toEqual([
      { pointer: '/x', kind: 'changed', before: { y: 1 }, after: 'flat' },
    ]);
  });

  it('is empty for equal terms regardless of key order', () => {
    expect(diffTerms({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
  });

  it('property: every reported change matches the values at its pointer, and equal terms give none', () => {
    const terms = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
    fc.assert(
      fc.property(terms, terms, (a, b) => {
        for (const c of diffTerms(a, b)) {
          if (c.kind !== 'added') expect(valueAt(a, c.pointer)).toEqual(c.before);
          if (c.kind !== 'removed') expect(valueAt(b, c.pointer)).toEqual(c.after);
          if (c.kind === 'added') expect(valueAt(a, c.pointer)).toBeUndefined();
        }
        expect(diffTerms(a, a)).toEqual([]);
        const json = JSON.parse(JSON.stringify(b)) as Record<string, unknown>;
        expect(diffTerms(b, json)).toEqual([]);
      }),
      { seed: 6, numRuns: 300 },
    );
  });
});
