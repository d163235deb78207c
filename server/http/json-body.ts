// JSON bodies checked against a zod schema at the boundary (STYLE.md rule 2). Malformed JSON,
// bytes that are not UTF-8, a missing JSON content type and a schema mismatch are all 400
// INVALID_REQUEST, nesting past the bound 400 JSON_TOO_DEEP (json-text.ts); the typed result is `c.req.valid('json')`, which also types the route for
// hc<AppType>.
import { createMiddleware } from 'hono/factory';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { CodedError } from '@shared/errors';
import { assertJsonDepth } from './json-text';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Hono's c.req.json() decodes with U+FFFD replacement, so invalid bytes would be stored as
 * replacement characters (found by server/hardening/http-fuzz.test.ts): the raw bytes are read
 * first (Hono caches them, and json() then parses the cached copy) and refused unless UTF-8.
 */
export function jsonBody<T extends z.ZodType>(schema: T) {
  const validate = parsedBody(schema);
  return createMiddleware(async (c, next) => {
    if (/^application\/([a-z0-9.+-]*\+)?json/i.test(c.req.header('content-type') ?? '')) {
      let text: string;
      try {
        text = strictUtf8.decode(await c.req.arrayBuffer());
      } catch {
        throw new CodedError('INVALID_REQUEST', 'The body is not UTF-8 text.');
      }
      assertJsonDepth(text);
    }
    return validate(c, next);
  }) as unknown as typeof validate;
}

function parsedBody<T extends z.ZodType>(schema: T) {
  return validator('json', (value): z.infer<T> => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      const first = issues[0];
      throw new CodedError('INVALID_REQUEST', first ? `Invalid body: ${first.path || '(root)'} ${first.message}` : 'Invalid body.', { issues });
    }
    return parsed.data;
  });
}
