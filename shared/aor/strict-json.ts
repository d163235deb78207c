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
  return key === undefined ? ok(value) : fail('duplicate_key', `Object key ${JSON.stringify(key)} is repeated or forbidden.`);
}

/**
 * The first key that repeats within one object, or is `__proto__`. `text` must already be valid
 * JSON: the scan only tracks strings, nesting and whether the next string is a key. It keeps
 * its own stack, so depth cannot overflow the call stack.
 */
export function findForbiddenKey(text: string): string | undefined {
  const frames: (Set<string> | null)[] = []; // a Set per open object, null per open array
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const keys = frames[frames.length - 1];
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string; // decodes escapes: "\u0061" is "a"
        if (key === '__proto__' || keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === '{') {
      frames.push(new Set());
      expectKey = true;
    } else if (c === '[') {
      frames.push(null);
      expectKey = false;
    } else if (c === '}' || c === ']') {
      frames.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = frames[frames.length - 1] instanceof Set;
    }
  }
  return undefined;
}
