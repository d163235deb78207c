// The real app over a real SQLite store in a temp dir, with a hand-moved clock set to the Agora
// fixtures' T0, for the relay's integration tests.
import { T0 } from '@shared/agora/test-support/fixtures';
import type { Envelope } from '@shared/agora/envelope';
import { testApp } from './test-app';
import { createRelayServices, type RelayServiceOptions, type RelayServices } from '../relay/relay-services';
import type { ThreadTimeouts } from '@shared/agora/thread-state';
import type { HttpLimits } from '../http/limits';
import { manualClock } from './manual-clock';
import { tempStore, type TempStore } from './temp-store';

export interface RelayApp {
  readonly app: ReturnType<typeof testApp>;
  readonly services: RelayServices;
  readonly clock: ReturnType<typeof manualClock>;
  readonly temp: TempStore;
  /** `from`: the client address the rate limits see (http/rate-limit.ts clientAddress). */
  post(body: unknown, path?: string, headers?: Record<string, string>, from?: string): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
}

export function relayApp(
  options: {
    demo?: boolean;
    timeouts?: ThreadTimeouts;
    temp?: TempStore;
    clock?: ReturnType<typeof manualClock>;
    limits?: Partial<HttpLimits>;
    services?: Pick<RelayServiceOptions, 'presence' | 'aorLinks'>;
  } = {},
): RelayApp {
  const temp = options.temp ?? tempStore();
  const clock = options.clock ?? manualClock(T0);
  const services = createRelayServices({
    store: temp.store.relay,
    clock,
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...options.services,
  });
  const app = testApp({
    staticDir: '/nonexistent',
    store: temp.store,
    clock,
    relay: { services, demo: options.demo ?? false, demoSeed: 7 },
    ...(options.limits ? { limits: options.limits } : {}),
  });
  return {
    app,
    services,
    clock,
    temp,
    post: async (body, path = '/events', headers = {}, from) =>
      app.request(
        path,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        },
        // Hono's node adapter reads the peer address from env.incoming.
        from === undefined ? undefined : { incoming: { socket: { remoteAddress: from } } },
      ),
    get: async (path, headers = {}) => app.request(path, { headers }),
  };
}

export interface Page {
  ok: boolean;
  events: Envelope[];
  hasMore: boolean;
  cursor: string;
}

export const page = async (res: Response): Promise<Page> => (await res.json()) as Page;
