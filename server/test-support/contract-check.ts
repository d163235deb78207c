// Every success answer a test app gives is parsed with the schema its operation declares in
// shared/contract (decisions-server.md §53): routes are typed against the contract at compile time,
// and this holds what types cannot see (refinements, a projection's values, answers written as
// text) against the contract in every test that drives the app. A drifting answer makes the
// request throw, naming the operation and the issues.
import type { z } from 'zod';
import type { Operation } from '@shared/contract/operation';
import { OPERATIONS } from '@shared/contract/operations';

/** An operation's path as a pattern: `{id}` is one segment, the proxy's trailing `{path}` the rest. */
const pattern = (path: string): RegExp =>
  new RegExp(
    `^${path
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\/\{path\}$/, '/.+')
      .replace(/\{\w+\}/g, '[^/]+')}$`,
  );

const ROUTES = OPERATIONS.map((op) => ({ op, pattern: pattern(op.path), params: op.path.split('{').length - 1 }));

/** The operation a request is answered by: the matching one with the fewest parameters (literal segments win). */
export function operationFor(method: string, pathname: string): Operation | undefined {
  return ROUTES.filter((r) => r.op.method === method.toLowerCase() && r.pattern.test(pathname)).sort(
    (a, b) => a.params - b.params,
  )[0]?.op;
}

/** Why `body`, answered with `status` to `method pathname`, breaks the contract; null when it keeps it. */
export function contractProblem(method: string, pathname: string, status: number, body: unknown): string | null {
  const op = operationFor(method, pathname);
  if (!op) return `${method} ${pathname} answered ${status} but no operation declares it`;
  const schema: z.ZodType | undefined = op.responses[status]?.schema;
  if (!schema) return `${method} ${pathname} (${op.path}) answered ${status}, which its operation does not declare`;
  const parsed = schema.safeParse(body);
  if (parsed.success) return null;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return `${method} ${pathname} (${op.path}) answered ${status} outside its schema: ${issues.join('; ')}`;
}

/**
 * Wraps the app's fetch (which `app.request` and a served app both call) so that every 2xx JSON
 * answer is checked before the test sees it. Non-JSON answers (the SPA, streams, 204) pass.
 */
export function checkAnswers<A extends { fetch: (request: Request, ...rest: never[]) => Response | Promise<Response> }>(
  app: A,
): A {
  const fetch = app.fetch;
  app.fetch = (async (request: Request, ...rest: never[]) => {
    const res = await fetch(request, ...rest);
    if (res.status < 200 || res.status > 299 || !res.headers.get('content-type')?.startsWith('application/json'))
      return res;
    const problem = contractProblem(
      request.method,
      new URL(request.url).pathname,
      res.status,
      await res.clone().json(),
    );
    if (problem) throw new Error(`contract: ${problem}`);
    return res;
  }) as A['fetch'];
  return app;
}
