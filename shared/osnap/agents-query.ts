// GET /agents?capability=…&scope=… (OSNAP §3.3), read from query parameters.
import { z } from 'zod';
import { ok } from '../errors';
import type { Result } from '../errors';
import { Scope, ToolName } from './agent-entry';
import { OsnapErrorCode, issueList, osnapFail } from './osnap-errors';
import type { OsnapError } from './osnap-errors';

/** Other parameters are ignored, as HTTP APIs usually do; the two known ones are checked. */
export const AgentsQuery = z.object({
  capability: ToolName.optional(),
  scope: Scope.optional(),
});
export type AgentsQuery = z.infer<typeof AgentsQuery>;

type QueryValue = string | readonly string[] | null | undefined;

/**
 * Reads the query from parsed parameters (`Object.fromEntries(url.searchParams)` or a
 * framework's `c.req.queries()`). A repeated parameter is refused rather than guessed at.
 */
export function parseAgentsQuery(params: Readonly<Record<string, QueryValue>>): Result<AgentsQuery, OsnapError> {
  const input: Record<string, string> = {};
  for (const key of ['capability', 'scope'] as const) {
    const value = Object.hasOwn(params, key) ? params[key] : undefined;
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      if (value.length !== 1)
        return osnapFail(OsnapErrorCode.INVALID_QUERY, `Give ${key} at most once.`, { parameter: key });
      input[key] = value[0] as string;
    } else input[key] = value;
  }
  const parsed = AgentsQuery.safeParse(input);
  if (!parsed.success) {
    return osnapFail(
      OsnapErrorCode.INVALID_QUERY,
      'capability must be a non-empty tool name and scope public or private.',
      {
        issues: issueList(parsed.error.issues),
      },
    );
  }
  return ok(parsed.data);
}
