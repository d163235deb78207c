// JSON bodies checked against a zod schema at the boundary (STYLE.md rule 2). Malformed JSON,
// a missing JSON content type and a schema mismatch are all 400 INVALID_REQUEST; the typed
// result is `c.req.valid('json')`, which also types the route for hc<AppType>.
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { CodedError } from '@shared/errors';

export function jsonBody<T extends z.ZodType>(schema: T) {
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
