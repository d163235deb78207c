// The real app over a test's own store, its services built as an instance builds them
// (runtime/app-services.ts) with the external-services bridge idle and no broker: the rooms API
// only when the test hands in `rooms`. Any option given replaces the one built; `limits` are
// merged over the defaults, and the clock is the system's unless given. Every success answer is
// parsed with its operation's contract schema (contract-check.ts).
import { createApp, type AppOptions } from '../app';
import { systemClock } from '../clock';
import { RelayBridge } from '../external/relay-bridge';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../http/limits';
import { buildAppServices } from '../runtime/app-services';
import type { Store } from '../store/store';
import { checkAnswers } from './contract-check';

export type TestAppOptions = Partial<Omit<AppOptions, 'limits'>> & {
  readonly store: Store;
  readonly limits?: Partial<HttpLimits>;
};

export function testApp(options: TestAppOptions) {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const services = buildAppServices({
    store,
    clock,
    bridge: options.bridge ?? new RelayBridge({ store, clock }),
    demo: { on: false, seed: 2026 },
  });
  return checkAnswers(
    createApp({
      staticDir: '/nonexistent',
      allowedHosts: [],
      readiness: {},
      ...services,
      ...options,
      clock,
      limits: { ...DEFAULT_HTTP_LIMITS, ...options.limits },
    }),
  );
}
