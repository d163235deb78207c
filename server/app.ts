// Mounts every route; `typeof app` is the whole API for the typed client (hc<AppType>).
// Dependencies (store, clock) come in as parameters, so tests drive the real app through
// `app.request()` with a real store in a temp dir and a clock of their own.
import { Hono } from 'hono';
import { CodedError } from '@shared/errors';
import { systemClock, type Clock } from './clock';
import { DidVerifier } from './crypto/node-verifier';
import { bodyCap } from './http/request-body';
import { csrfProtection } from './http/csrf';
import { handleError } from './http/errors';
import { hostCheck, type AllowedHosts } from './http/host-check';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http/limits';
import { ConcurrencyLimiter, TokenBucketLimiter } from './http/rate-limit';
import { securityHeaders } from './http/security-headers';
import { spaRoutes } from './http/spa';
import { authRoutes } from './routes/auth';
import { healthRoutes } from './routes/health';
import { readyRoutes, type ReadinessCheck } from './routes/ready';
import { roomRoutes, type RoomRouteDeps } from './routes/rooms';
import { openApiDocument } from './http/openapi';
import { createRelayServices, type RelayServices } from './relay/relay-services';
import { agentRoutes } from './routes/agents';
import { agoraThreadRoutes } from './routes/agora-threads';
import { eventRoutes } from './routes/events';
import { seedRoutes } from './routes/seed';
import { ledgerRoutes } from './routes/ledger';
import { schedulingRoutes, taskRoutes } from './routes/scheduling';
import { OacopReadModels } from './oacop/oacop-read-models';
import type { Store } from './store/store';
import { NegotiationService } from './negotiation/negotiation-service';
import { negotiationRoutes } from './routes/negotiation';
import { negotiationConsoleRoutes } from './routes/negotiations-console';
import { transparencyLogRoutes } from './routes/transparency-log';
import { RelayBridge } from './external/relay-bridge';
import { externalServiceRoutes } from './routes/external-services';
import { demoRoutes, type GuidedDemoSlot } from './routes/demo';

export interface AppOptions {
  readonly staticDir: string;
  readonly store: Store;
  readonly clock?: Clock;
  /** Failed sign-ins per client address (HttpLimits.authPerAddress): a burst of `capacity`, then `refillPerSecond`. */
  readonly authRateLimit?: { readonly capacity: number; readonly refillPerSecond: number };
  /** Rate limits and long-poll caps (config.ts, http/limits.ts); each absent one is the default. */
  readonly limits?: Partial<HttpLimits>;
  /** The rooms API needs the running broker and gateway; apps without them serve auth only. */
  readonly rooms?: RoomRouteDeps;
  /** The Agora relay and directory; built over `store` (demo off) when absent. */
  readonly relay?: { readonly services: RelayServices; readonly demo: boolean; readonly demoSeed: number };
  /** The RFC 0002 service; built over `store` when absent. */
  readonly negotiations?: NegotiationService;
  /** What GET /ready checks besides the store (the broker connection). */
  readonly readiness?: Readonly<Record<string, ReadinessCheck>>;
  /** External relays and negotiation services (issue 11); an idle bridge over `store` when absent. */
  readonly bridge?: RelayBridge;
  /** The guided demo's kick (issue 10 item 3); the route answers 503 while it is empty. */
  readonly guidedDemo?: GuidedDemoSlot;
  /** Told when a session ends or an operator's role changes here, so open /mqtt sockets are checked at once. */
  readonly sessionsChanged?: () => void;
  /** Host names besides localhost and IP literals (ALLOWED_HOSTS, http/host-check.ts). */
  readonly allowedHosts?: AllowedHosts;
}

/** 30 requests per minute per client address. */
export const DEFAULT_AUTH_RATE_LIMIT = DEFAULT_HTTP_LIMITS.authPerAddress;

/** Generated on the first request, then served as is. */
let document: ReturnType<typeof openApiDocument> | undefined;

export function createApp(options: AppOptions) {
  const clock = options.clock ?? systemClock;
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...options.limits, ...(options.authRateLimit ? { authPerAddress: options.authRateLimit } : {}) };
  const limiter = new TokenBucketLimiter({ ...limits.authPerAddress, clock });
  const didLimiter = new TokenBucketLimiter({ ...limits.authPerDid, clock });
  const challengeLimiter = new TokenBucketLimiter({ ...limits.authChallengesPerAddress, clock });
  const eventLimits = {
    perAddress: new TokenBucketLimiter({ ...limits.relayPerAddress, clock }),
    perDid: new TokenBucketLimiter({ ...limits.relayPerDid, clock }),
    longPolls: new ConcurrencyLimiter(limits.longPollsPerAddress),
    registrationsPerAddress: new TokenBucketLimiter({ ...limits.directoryPerAddress, clock }),
    registrationsPerDid: new TokenBucketLimiter({ ...limits.directoryPerDid, clock }),
  };
  const verifier = new DidVerifier();
  const relay = options.relay ?? { services: createRelayServices({ store: options.store.relay, clock, verifier }), demo: false, demoSeed: 2026 };
  const negotiations = options.negotiations ?? new NegotiationService({ store: options.store.negotiations, clock, verifier });
  const oacop = new OacopReadModels(options.store.relay);
  const external = externalServiceRoutes(options.bridge ?? new RelayBridge({ store: options.store, clock }), { store: options.store, clock });
  const app = new Hono()
    .use('*', securityHeaders())
    .use('*', hostCheck(options.allowedHosts ?? []))
    .use('*', bodyCap())
    .use('/api/*', csrfProtection())
    // POST /seed reads the session cookie: the same wall as /api.
    .use('/seed', csrfProtection())
    .route('/health', healthRoutes)
    .route('/ready', readyRoutes(options.store, options.readiness))
    .get('/openapi.json', (c) => c.json((document ??= openApiDocument()), 200))
    .route('/events', eventRoutes(relay.services, eventLimits))
    .route('/agents', agentRoutes({ services: relay.services, store: options.store, clock, limits: eventLimits }))
    .route('/seed', seedRoutes({ ...relay, store: options.store, clock }))
    .get('/oap/manifest', (c) => c.json(negotiations.manifest, 200))
    .route('/oap/negotiation', negotiationRoutes(negotiations, { store: options.store, clock }, limits))
    .route('/oap/transparency-log', transparencyLogRoutes(negotiations))
    .route('/api/negotiations', negotiationConsoleRoutes(negotiations, { store: options.store, clock }))
    .route('/api/agora/threads', agoraThreadRoutes(relay.services, { store: options.store, clock }))
    .route('/api/scheduling', schedulingRoutes(oacop, { store: options.store, clock }))
    .route('/api/tasks', taskRoutes(oacop, { store: options.store, clock }))
    .route('/api/ledger', ledgerRoutes(relay.services.relay, options.store.oacop, limits, clock))
    .route('/api/services', external.services)
    .route('/api/external', external.external)
    .route('/api/auth', authRoutes({ store: options.store, clock, verifier, limiter, didLimiter, challengeLimiter, ...(options.sessionsChanged ? { sessionsChanged: options.sessionsChanged } : {}) }))
    .route('/api/demo', demoRoutes(options.guidedDemo ?? { port: undefined }, { store: options.store, clock }));
  if (options.rooms) app.route('/api/rooms', roomRoutes(options.rooms));
  app.route('/', spaRoutes(options.staticDir));
  app.notFound((c) => handleError(new CodedError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}.`), c));
  app.onError(handleError);
  return app;
}

export type AppType = ReturnType<typeof createApp>;
