// GET /metrics: the Prometheus text exposition of this process (server/metrics/). Served only when
// METRICS_TOKEN is set, to `Authorization: Bearer <token>` compared in constant time; without a
// token the route answers 404 like any unknown path (decisions-server.md, "Metrics").
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { CodedError } from '@shared/errors';

export interface MetricsRouteDeps {
  /** The exposition and its content type (SwitchboardMetrics.render). */
  readonly render: () => Promise<{ readonly contentType: string; readonly body: string }>;
  readonly token: string;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Equal-length digests, so neither the token's length nor its first differing byte shows in the timing. */
const sameToken = (given: string, expected: Buffer) => timingSafeEqual(digest(given), expected);

export function metricsRoutes(deps: MetricsRouteDeps | undefined) {
  const expected = deps ? digest(deps.token) : undefined;
  return new Hono().get('/', async (c) => {
    if (!deps || !expected) throw new CodedError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}.`);
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer ([^\s]+)$/i.exec(header);
    if (!match || !sameToken(match[1]!, expected)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new CodedError('UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.');
    }
    const { contentType, body } = await deps.render();
    c.header('Cache-Control', 'no-store');
    return c.body(body, 200, { 'Content-Type': contentType });
  });
}
