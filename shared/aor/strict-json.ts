// The gateway republishes an approved candidate's bytes unchanged (AOR §7). JSON.parse keeps
// the last of two equal keys while other parsers keep the first, so a message holding
// `"room_id"` twice could be checked as one room and read downstream as another. Such texts
// are refused here, as is a `__proto__` key, which no AOR message has and some parsers honour.
import { fail, ok, type Result } from '../errors';

export type JsonProblem = 'invalid_json' | 'duplicate_key';

/** Parses JSON text, refusing duplicate object keys and `__proto__` keys. */
export function parseStrictJson(text: string): Result<unknown, { code: JsonProblem; message: string }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // RangeError (nesting too deep) lands here too.
    return fail('invalid_json', `Not valid JSON: ${(error as Error).message}`);
  }
  const key = findForbiddenKey(text);
  return key === undefined
    ? ok(value)
    : fail('duplicate_key', `Object key ${JSON.stringify(key)} is repeated or forbidden.`);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** Where the string opened by the quote at `open` closes: the next quote not escaped. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    if (end < 0) return text.length; // unterminated: not JSON, which the caller has ruled out
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/**
 * The first key that repeats within one object, or is `__proto__`. `text` must already be valid
 * JSON: the scan only tracks strings, nesting and whether the next string is a key. It keeps
 * its own stack, so depth cannot overflow the call stack. Every candidate goes through it, so it
 * jumps from quote to quote and decodes only keys that hold an escape.
 */
export function findForbiddenKey(text: string): string | undefined {
  const frames: (Set<string> | null)[] = []; // a Set per open object, null per open array
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      const keys = frames[frames.length - 1];
      if (expectKey && keys) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw; // "\u0061" is "a"
        if (key === '__proto__' || keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT) {
      frames.push(new Set());
      expectKey = true;
    } else if (c === OPEN_ARRAY) {
      frames.push(null);
      expectKey = false;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      frames.pop();
      expectKey = false;
    } else if (c === COMMA) {
      expectKey = frames[frames.length - 1] instanceof Set;
    }
  }
  return undefined;
}
