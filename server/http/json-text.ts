// The one way the server turns JSON text from outside into a value: a request body or a
// counterparty service's answer. Nesting is bounded before JSON.parse runs, so a deep document
// is refused as JSON_TOO_DEEP instead of reaching recursive code (zod, JCS, the console's
// renderers) that would overflow the stack on it (decisions-server.md §44).
import { CodedError } from '@shared/errors';

/** Containers inside containers: far above any document of the five protocols. */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of objects and arrays in `text` (brackets inside strings do not count), or
 * `limit + 1` as soon as it passes `limit`: a linear scan that stops early. Malformed text is
 * left to JSON.parse.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === BACKSLASH) i += 1;
      else if (ch === QUOTE) inString = false;
    } else if (ch === QUOTE) {
      inString = true;
    } else if (ch === OPEN_OBJECT || ch === OPEN_ARRAY) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (ch === CLOSE_OBJECT || ch === CLOSE_ARRAY) {
      depth -= 1;
    }
  }
  return deepest;
}

/** Throws JSON_TOO_DEEP (400) when `text` nests deeper than `maxDepth`. */
export function assertJsonDepth(text: string, maxDepth = MAX_JSON_DEPTH): void {
  if (jsonDepth(text, maxDepth) > maxDepth) {
    throw new CodedError('JSON_TOO_DEEP', `JSON may nest objects and arrays at most ${maxDepth} deep.`, {
      limit: maxDepth,
    });
  }
}

/** JSON.parse behind the depth bound: JSON_TOO_DEEP (400) past it, INVALID_REQUEST when not JSON. */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  assertJsonDepth(text, maxDepth);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CodedError('INVALID_REQUEST', 'The body is not JSON.');
  }
}
