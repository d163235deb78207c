import { Hono } from 'hono';
import { NotReady, Ready } from '@shared/contract/relay';
import { reply } from '../http/reply';
import type { Store } from '../store/store';

/** What /ready checks besides the store; each returns a problem in words, or null when fine. */
export type ReadinessCheck = () => Promise<string | null> | string | null;

/** How long the store may take to answer before the instance counts as not ready. */
const STORE_TIMEOUT_MS = 2_000;

async function storeProblem(store: Store): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${STORE_TIMEOUT_MS} ms`), STORE_TIMEOUT_MS);
  });
  try {
    // A read every engine answers from its own tables: reachable, and migrated (it opened).
    return await Promise.race([store.relay.headSeq().then(() => null), late]);
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness for a load balancer (docs/deploy.md): 200 when this instance can serve (its store
 * answers, its broker connection is up), else 503 naming what is not. /health stays liveness:
 * the process answers.
 */
export function readyRoutes(store: Store, checks: Readonly<Record<string, ReadinessCheck>> = {}) {
  return new Hono().get('/', async (c) => {
    const results: Record<string, string | null> = { store: await storeProblem(store) };
    for (const [name, check] of Object.entries(checks)) {
      try {
        results[name] = await check();
      } catch (error) {
        results[name] = error instanceof Error ? error.message : String(error);
      }
    }
    const problems = Object.fromEntries(Object.entries(results).filter(([, problem]) => problem !== null));
    const status = Object.fromEntries(
      Object.entries(results).map(([name, problem]) => [name, problem === null ? 'ok' : problem]),
    );
    if (Object.keys(problems).length === 0) return reply(c, Ready, { ready: true as const, checks: status }, 200);
    c.header('Retry-After', '5');
    return reply(
      c,
      NotReady,
      {
        ready: false as const,
        code: 'NOT_READY' as const,
        message: `Not ready: ${Object.keys(problems).join(', ')}.`,
        checks: status,
      },
      503,
    );
  });
}
