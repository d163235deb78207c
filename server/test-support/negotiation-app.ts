// The real app over a real SQLite store in a temp dir with a hand-moved clock, and three RFC 0002
// parties that talk to it through app.request, for the negotiation service's integration tests.
import type { HttpLimits } from '../http/limits';
import { testApp } from './test-app';
import { DidVerifier } from '../crypto/node-verifier';
import { NegotiationParty, seededBytes } from '@agents/negotiation/negotiation-client';
import { negotiationIdentity } from '../demo/demo-identity';
import { mulberry32 } from '../demo/prng';
import { NegotiationService } from '../negotiation/negotiation-service';
import { manualClock } from './manual-clock';
import { tempStore, type TempStore } from './temp-store';
import type { NegotiationStore } from '../store/negotiation-store';

export const T0 = Date.parse('2026-05-03T10:00:00Z');

/**
 * The real SQLite store, but reads of a negotiation are held until `batch` of them are waiting
 * (or 50 ms passed), then released together, as a networked engine's slow reads would overlap:
 * concurrent requests then really interleave between their read and their compare-and-set
 * (with the synchronous SQLite driver alone, each request runs to completion in turn).
 */
export function withOverlappingReads(
  store: NegotiationStore,
  batch: number,
): NegotiationStore & { overlapped: number } {
  let waiting: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(timer);
    timer = undefined;
    const now = waiting;
    waiting = [];
    for (const go of now) go();
  };
  const stats = { overlapped: 0 };
  return new Proxy(store as NegotiationStore & { overlapped: number }, {
    get(target, key) {
      if (key === 'overlapped') return stats.overlapped;
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'get') return (value as (...a: unknown[]) => unknown).bind(target);
      return async (id: string) => {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length >= batch) {
            stats.overlapped += waiting.length;
            release();
          } else timer ??= setTimeout(release, 50);
        });
        return target.get(id);
      };
    },
  });
}

export function negotiationApp(
  options: {
    temp?: TempStore;
    clock?: ReturnType<typeof manualClock>;
    overlapReads?: number;
    verifier?: DidVerifier;
    limits?: Partial<HttpLimits>;
  } = {},
) {
  const temp = options.temp ?? tempStore();
  const clock = options.clock ?? manualClock(T0);
  const store = options.overlapReads
    ? withOverlappingReads(temp.store.negotiations, options.overlapReads)
    : temp.store.negotiations;
  const service = new NegotiationService({ store, clock, verifier: options.verifier ?? new DidVerifier() });
  const app = testApp({
    staticDir: '/nonexistent',
    store: temp.store,
    clock,
    negotiations: service,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const fetch = (input: string, init?: RequestInit) => app.request(input, init);
  const rng = mulberry32(7);
  const party = (key: string) =>
    new NegotiationParty(negotiationIdentity(1, key, key), fetch, '', () => clock.now(), seededBytes(rng));
  return {
    app,
    store,
    temp,
    clock,
    service,
    buyer: party('buyer'),
    seller: party('seller'),
    stranger: party('stranger'),
    post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    get: (path: string, headers: Record<string, string> = {}) => app.request(path, { headers }),
  };
}
