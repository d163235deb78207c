// Hostile HTTP request bodies for the HTTP fuzz: malformed JSON, wrong types
// against a route's own template, deeply nested JSON and bytes that are not UTF-8. Each is a
// fast-check arbitrary, so a failing case replays from the fixed seed.
import fc from 'fast-check';

export interface HostileBody {
  readonly kind: 'malformed-json' | 'wrong-types' | 'deep-nesting' | 'invalid-utf8';
  readonly body: string | Uint8Array;
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Text that does not parse: junk, or a valid document cut short. */
export const malformedJson = (template: unknown): fc.Arbitrary<HostileBody> => {
  const whole = JSON.stringify(template);
  return fc
    .oneof(
      fc.string({ maxLength: 200 }),
      fc.integer({ min: 1, max: Math.max(1, whole.length - 1) }).map((cut) => whole.slice(0, cut)),
      fc.constantFrom('{', '{"a":', '[1,2', '{"a":1,}', "{'a':1}", 'NaN', '{"a":undefined}', '\u0000', ''),
    )
    .filter((text) => !isJson(text))
    .map((body) => ({ kind: 'malformed-json' as const, body }));
};

const wrongValue = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
  fc.double(),
);

/**
 * The route's own valid-looking body with one field (at any depth) given a value of another JSON
 * type, or the whole body replaced by a non-object. `strings` are the template's string fields
 * (their replacements are never strings, so a schema that types them must refuse).
 */
export const wrongTypes = (template: Record<string, unknown>): fc.Arbitrary<HostileBody> => {
  const keys = Object.keys(template).filter((k) => typeof template[k] !== 'object' || template[k] === null);
  const replaceOne =
    keys.length === 0
      ? fc.constant(template)
      : fc
          .tuple(fc.constantFrom(...keys), wrongValue)
          .map(([key, value]) => ({ ...template, [key]: typeof template[key] === typeof value ? [value] : value }));
  const notObject = fc.oneof(
    fc.integer(),
    fc.string({ maxLength: 20 }),
    fc.constant(null),
    fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
    fc.boolean(),
  );
  const missing =
    keys.length === 0
      ? fc.constant({})
      : fc
          .subarray(keys, { minLength: 1 })
          .map((drop) => Object.fromEntries(Object.entries(template).filter(([k]) => !drop.includes(k))));
  return fc
    .oneof(replaceOne, notObject, missing)
    .map((value) => ({ kind: 'wrong-types' as const, body: JSON.stringify(value) }));
};

/** [[[…]]] or {"a":{"a":…}} from 1,000 to 50,000 levels: a recursive parser or walker overflows. */
export const deepNesting: fc.Arbitrary<HostileBody> = fc
  .tuple(fc.integer({ min: 1_000, max: 50_000 }), fc.boolean())
  .map(([depth, arrays]) => ({
    kind: 'deep-nesting' as const,
    body: arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  }));

/** A JSON-looking body with bytes no UTF-8 decoder accepts (lone continuation, overlong, 0xFF). */
export const invalidUtf8 = (template: unknown): fc.Arbitrary<HostileBody> => {
  const bytes = new TextEncoder().encode(JSON.stringify(template));
  const bad = fc.constantFrom(
    [0xff],
    [0xc3, 0x28],
    [0x80],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
  );
  return fc.tuple(fc.integer({ min: 0, max: bytes.length }), bad).map(([at, insert]) => ({
    kind: 'invalid-utf8' as const,
    body: new Uint8Array([...bytes.slice(0, at), ...insert, ...bytes.slice(at)]),
  }));
};

/** Every hostile body kind against one template. */
export const hostileBody = (template: Record<string, unknown>): fc.Arbitrary<HostileBody> =>
  fc.oneof(malformedJson(template), wrongTypes(template), deepNesting, invalidUtf8(template));

/** A body one byte over `limit`, as JSON text (a string of spaces inside an object). */
export const oversizeBody = (limit: number): string => `{"x":"${' '.repeat(limit)}"}`;
