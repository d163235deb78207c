import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findForbiddenKey, parseStrictJson } from './strict-json';

describe('parseStrictJson', () => {
  it('parses ordinary JSON', () => {
    expect(parseStrictJson('{"a":[1,{"b":"x"}],"c":null}')).toEqual({
      ok: true,
      value: { a: [1, { b: 'x' }], c: null },
    });
  });

  it('refuses text that is not JSON', () => {
    const result = parseStrictJson('{"a":');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('invalid_json');
  });

  it('survives deep nesting without overflowing the stack (the key scan keeps its own stack)', () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    expect(() => parseStrictJson(deep)).not.toThrow();
  });

  it('refuses a repeated key (decision "duplicate keys")', () => {
    const result = parseStrictJson('{"room_id":"room_2","x":1,"room_id":"room_1"}');
    expect(result).toMatchObject({ ok: false, error: { code: 'duplicate_key' } });
  });
});

describe('findForbiddenKey', () => {
  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{"a":1,"\\u0061":2}', 'a'],
    ['{"x":{"b":1,"b":2}}', 'b'],
    ['[{"k":1},{"k":1,"k":2}]', 'k'],
    ['{"__proto__":{}}', '__proto__'],
    ['{"o":{"__proto__":1}}', '__proto__'],
  ])('finds the key in %s', (text, key) => {
    expect(findForbiddenKey(text)).toBe(key);
  });

  it.each([
    '{"a":1,"b":{"a":2}}', // same key in different objects
    '{"a":"a","b":["a","a"]}', // equal strings as values
    '{"a":"x\\"a\\":1","b":2}', // a quoted key-lookalike inside a string
    '{"a":{},"b":[],"c":[{}]}',
    '"__proto__"',
    '[1,2,3]',
    '{"k":[1,2],"l":3}',
  ])('accepts %s', (text) => {
    expect(findForbiddenKey(text)).toBeUndefined();
  });
});

describe('findForbiddenKey, for any JSON', () => {
  // Keys and strings with quotes, backslashes, control characters and non-ASCII text, which
  // JSON.stringify escapes: the scan must find each string's end and decode each key as JSON does.
  const character = fc.oneof(
    fc.constantFrom('"', '\\', 'a', '\n', 'é', '\u2028', '𐀀'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  );
  const text = fc.string({ unit: character, maxLength: 6 }).filter((s) => s !== '__proto__');
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.constant(null),
      fc.array(tie('node'), { maxLength: 3 }),
      tie('object'),
    ),
    object: fc.dictionary(text, tie('node'), { maxKeys: 4 }),
  }));

  it('finds nothing in what JSON.stringify writes, escapes and nesting included', () => {
    fc.assert(
      fc.property(value.node, (v) => findForbiddenKey(JSON.stringify(v)) === undefined),
      { numRuns: 2000 },
    );
  });

  it('finds a key written twice in one object, however it is escaped', () => {
    fc.assert(
      fc.property(value.object, text, value.node, fc.boolean(), (object, key, repeated, escapeAll) => {
        // The same key once more, last in the object; escapeAll spells every character as \uXXXX.
        const spelled = escapeAll
          ? `"${Array.from({ length: key.length }, (_, i) => `\\u${key.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`
          : JSON.stringify(key);
        const once = JSON.stringify({ ...object, [key]: 0 });
        const twice = `${once.slice(0, -1)},${spelled}:${JSON.stringify(repeated)}}`;
        return (
          findForbiddenKey(JSON.stringify({ outer: [JSON.parse(once)] })) === undefined &&
          findForbiddenKey(`{"outer":[${twice}]}`) === key
        );
      }),
      { numRuns: 2000 },
    );
  });
});
