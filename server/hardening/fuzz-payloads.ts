// Hostile MQTT payloads for the hardening fuzz tests: malformed JSON, wrong types in a valid
// envelope, invalid UTF-8, deep nesting and payloads over the 256 KiB envelope limit (AOR
// decision 16). Every arbitrary yields bytes, because MQTT carries bytes, not text.
import fc from 'fast-check';

const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * Valid JSON with one field dropped, replaced by a value of any type (often the wrong one), or
 * replaced by another value of its own type (often still valid: the approve path gets fuzzed too).
 */
function mutated(base: () => Record<string, unknown>): fc.Arbitrary<Uint8Array> {
  const paths = (value: unknown, prefix: string[] = []): string[][] =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])])
      : [];
  const all = paths(base());
  const mode = fc.constantFrom('drop', 'any', 'same');
  return fc
    .tuple(fc.constantFrom(...all), mode, fc.anything(), fc.string({ maxLength: 64 }), fc.integer())
    .map(([path, how, anything, text, int]) => {
      const envelope = base();
      let target = envelope as Record<string, unknown>;
      for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
      const last = path.at(-1)!;
      const original = target[last];
      if (how === 'drop') delete target[last];
      else if (how === 'any') target[last] = anything;
      else target[last] = typeof original === 'string' ? text : typeof original === 'number' ? int : anything;
      return utf8(JSON.stringify(envelope));
    });
}

/** A valid envelope's bytes with an invalid UTF-8 sequence inside a string value. */
function invalidUtf8(base: () => Record<string, unknown>): fc.Arbitrary<Uint8Array> {
  return fc
    .constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82])
    .map((bad) => {
      const text = JSON.stringify({ ...base(), note: 'HOLE' });
      const at = text.indexOf('HOLE');
      const head = utf8(text.slice(0, at));
      const tail = utf8(text.slice(at + 4));
      return new Uint8Array([...head, ...bad, ...tail]);
    });
}

/**
 * Arrays or objects nested up to 200 000 deep (a recursive parser would overflow its stack),
 * kept under the broker's 512 KiB packet cap so the server, not the broker, has to decide.
 */
const deep: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.boolean())
  .map(([depth, objects]) =>
    utf8(objects ? '{"a":'.repeat(depth / 3) + '1' + '}'.repeat(depth / 3) : '['.repeat(depth) + ']'.repeat(depth)),
  );

/** Just over the envelope limit, but under the broker's packet cap: the gateway must decide. */
function huge(base: () => Record<string, unknown>): fc.Arbitrary<Uint8Array> {
  return fc.integer({ min: 256 * 1024 + 1, max: 400 * 1024 }).map((size) => {
    const text = JSON.stringify({ ...base(), pad: '' });
    return utf8(text.slice(0, -2) + 'x'.repeat(Math.max(0, size - text.length)) + '"}');
  });
}

/**
 * Payloads a reader of `topic` must survive. `base` makes a fresh valid envelope for the topic,
 * which the mutations start from, so most cases get past the first JSON check.
 */
export function hostilePayload(base: () => Record<string, unknown>): fc.Arbitrary<Uint8Array> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 200 }).map(utf8) },
    { weight: 3, arbitrary: fc.json({ maxDepth: 4 }).map(utf8) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }) },
    { weight: 8, arbitrary: mutated(base) },
    { weight: 2, arbitrary: invalidUtf8(base) },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: huge(base) },
    // A duplicate key: parsers disagree on which value counts (AOR decision 16).
    { weight: 1, arbitrary: fc.constant(0).map(() => utf8(JSON.stringify(base()).replace('{', '{"room_id":"r2",'))) },
  );
}
