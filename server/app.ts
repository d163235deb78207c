// Mounts every route; `typeof app` is the whole API for the typed client (hc<AppType>).
// It is given every service built (runtime/app-services.ts) and builds none itself, only its own
// rate limiters from the limits it is given; tests drive the real app through `app.request()`
// with the same services over a store and a clock of their own (test-support/test-app.ts).
import { Hono } from 'hono';
import { OpenApiDocument } from '@shared/contract/relay';
import { CodedError } from '@shared/errors';
import { ManifestDeclaration } from '@shared/negotiation/manifest';
import type { Clock } from './clock';
import type { DidVerifier } from './crypto/node-verifier';
import { bodyCap } from './http/request-body';
import { csrfProtection } from './http/csrf';
import { handleError } from './http/errors';
import { hostCheck, type AllowedHosts } from './http/host-check';
import type { HttpLimits } from './http/limits';
import type { TrustedProxies } from './http/client-address';
import { clientAddresses, ConcurrencyLimiter, TokenBucketLimiter } from './http/rate-limit';
import { noStoreWhenAuthenticated } from './http/no-store';
import { securityHeaders } from './http/security-headers';
import { moduleLogger } from './logging/logger';
import { requestLog } from './logging/request-log';
import { spaRoutes } from './http/spa';
import { authRoutes } from './routes/auth';
import { healthRoutes } from './routes/health';
import { metricsRoutes, type MetricsRouteDeps } from './routes/metrics';
import { readyRoutes, type ReadinessCheck } from './routes/ready';
import { roomHealthRoutes } from './routes/room-health';
import { roomRoutes, type RoomRouteDeps } from './routes/rooms';
import { openApiDocument } from './http/openapi';
import { reply } from './http/reply';
import type { RelayServices } from './relay/relay-services';
import { agentRoutes } from './routes/agents';
import { agoraThreadRoutes } from './routes/agora-threads';
import { eventRoutes } from './routes/events';
import { seedRoutes } from './demo/agora/seed-route';
import { ledgerRoutes } from './routes/ledger';
import { schedulingRoutes, taskRoutes } from './routes/scheduling';
import type { OacopReadModels } from './oacop/oacop-read-models';
import type { Store } from './store/store';
import type { NegotiationService } from './negotiation/negotiation-service';
import { negotiationRoutes } from './routes/negotiation';
import { negotiationConsoleRoutes } from './routes/negotiations-console';
import { transparencyLogRoutes } from './routes/transparency-log';
import type { RelayBridge } from './external/relay-bridge';
import { externalServiceRoutes } from './routes/external-services';
import { demoRoutes, type GuidedDemoSlot } from './routes/demo';
import { operatorRoutes } from './routes/operators';
import { operatorAdminRoutes } from './routes/operator-admin';
import type { OperatorPresence } from './auth/operator-presence';
import { inboxRoutes, type InboxStreamLimits } from './routes/inbox';
import type { InboxService } from './inbox/inbox-service';
import { webhookRoutes } from './routes/webhooks';
import { agentAccountRoutes, type AgentAccountDeps } from './routes/agent-accounts';
import type { WebhookService } from './webhooks/webhook-service';
import type { McpSessions } from './mcp/mcp-sessions';
import { mcpRoutes } from './routes/mcp';
import { directoryImportRoutes } from './routes/directory-imports';

export interface AppOptions {
  readonly staticDir: string;
  readonly store: Store;
  readonly clock: Clock;
  /** Rate limits and long-poll caps (config.ts, http/limits.ts). */
  readonly limits: HttpLimits;
  /** Host names besides localhost and IP literals (ALLOWED_HOSTS, http/host-check.ts). */
  readonly allowedHosts: AllowedHosts;
  /** Proxies whose X-Forwarded-For names the client (TRUST_PROXY, http/client-address.ts); none when absent. */
  readonly trustProxy?: TrustedProxies;
  /** The Ed25519 verifier sign-in shares with the relay and negotiations. */
  readonly verifier: DidVerifier;
  /** The rooms API needs the running broker and gateway; apps without them serve the rest. */
  readonly rooms?: RoomRouteDeps;
  /** The Agora relay and directory, and whether POST /seed is open (the demo is on). */
  readonly relay: { readonly services: RelayServices; readonly demo: boolean; readonly demoSeed: number };
  /** The RFC 0002 service. */
  readonly negotiations: NegotiationService;
  /** The console's OACoP read models. */
  readonly oacop: OacopReadModels;
  /** What GET /ready checks besides the store (the broker connection). */
  readonly readiness: Readonly<Record<string, ReadinessCheck>>;
  /** External relays and negotiation services. */
  readonly bridge: RelayBridge;
  /** Outgoing webhooks: the address policy and "send a test" (started by the runtime, idle in tests). */
  readonly webhooks: WebhookService;
  /** The guided demo's kick; the route answers 503 while it is empty. */
  readonly guidedDemo: GuidedDemoSlot;
  /** Agents under control (/api/agent-accounts); apps without a broker answer 404 there. */
  readonly agents?: AgentAccountDeps;
  /** The inbox (runtime/inbox.ts); apps without one answer 404 there. */
  readonly inbox?: { readonly service: InboxService; readonly streams?: Partial<InboxStreamLimits> };
  /** Told when a session ends or an operator's role changes here, so open /mqtt sockets are checked at once. */
  readonly sessionsChanged?: () => void;
  /** Which operators are on which console page (POST/GET /api/presence). */
  readonly operatorPresence: OperatorPresence;
  /** GET /metrics with METRICS_TOKEN; absent, the route answers 404 (routes/metrics.ts). */
  readonly metrics?: MetricsRouteDeps;
  /** Told each time an operator session opens (the sessions metric). */
  readonly sessionOpened?: (how: 'login' | 'enroll') => void;
  /** Agents' MCP sessions (/mcp, decisions-mcp.md); absent, /mcp answers 404. */
  readonly mcp?: McpSessions;
}

const httpLog = moduleLogger('http');

/** Generated on the first request, then served as is. */
let document: ReturnType<typeof openApiDocument> | undefined;

export function createApp(options: AppOptions) {
  const { clock, limits, verifier, relay, negotiations, oacop } = options;
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
  // Logouts and re-enrollments here: the broker's consoles and the inbox streams check at once.
  const sessionWatchers = new Set<() => void>();
  const sessionsChanged = () => {
    options.sessionsChanged?.();
    for (const watcher of sessionWatchers) watcher();
  };
  const watchSessions = (watcher: () => void) => {
    sessionWatchers.add(watcher);
    return () => void sessionWatchers.delete(watcher);
  };
  const external = externalServiceRoutes(options.bridge, { store: options.store, clock });
  const operators = operatorRoutes({ store: options.store, clock, presence: options.operatorPresence, limits });
  const admin = operatorAdminRoutes({
    store: options.store,
    clock,
    limits,
    ...(options.sessionsChanged ? { sessionsChanged: options.sessionsChanged } : {}),
  });
  const app = new Hono()
    .use('*', clientAddresses(options.trustProxy ?? []))
    // Then: every answer is logged, refusals by the middleware after it included.
    .use('*', requestLog(httpLog))
    .use('*', securityHeaders())
    .use('*', noStoreWhenAuthenticated())
    .use('*', hostCheck(options.allowedHosts))
    .use('*', bodyCap())
    .use('/api/*', csrfProtection())
    // POST /seed reads the session cookie: the same wall as /api.
    .use('/seed', csrfProtection())
    .route('/health', healthRoutes)
    .route('/ready', readyRoutes(options.store, options.readiness))
    .get('/openapi.json', (c) => reply(c, OpenApiDocument, (document ??= openApiDocument()), 200))
    .route('/metrics', metricsRoutes(options.metrics))
    .route('/events', eventRoutes(relay.services, eventLimits, { store: options.store, clock }))
    .route('/agents', agentRoutes({ services: relay.services, store: options.store, clock, limits: eventLimits }))
    .route('/seed', seedRoutes({ ...relay, store: options.store, clock }))
    .get('/oap/manifest', (c) => reply(c, ManifestDeclaration, negotiations.manifest, 200))
    .route('/oap/negotiation', negotiationRoutes(negotiations, { store: options.store, clock }, limits))
    .route('/oap/transparency-log', transparencyLogRoutes(negotiations))
    .route('/api/negotiations', negotiationConsoleRoutes(negotiations, { store: options.store, clock }))
    .route('/api/agora/threads', agoraThreadRoutes(relay.services, { store: options.store, clock }))
    .route('/api/scheduling', schedulingRoutes(oacop, { store: options.store, clock }))
    .route('/api/tasks', taskRoutes(oacop, { store: options.store, clock }))
    .route('/api/ledger', ledgerRoutes(relay.services.relay, options.store.oacop, limits, clock))
    .route('/api/services', external.services)
    .route('/api/external', external.external)
    .route('/api/webhooks', webhookRoutes(options.webhooks, { store: options.store, clock }, limits))
    .route(
      '/api/directory/imports',
      directoryImportRoutes(options.bridge.outbound, { store: options.store, clock }, limits),
    )
    .route(
      '/api/auth',
      authRoutes({
        store: options.store,
        clock,
        verifier,
        limiter,
        didLimiter,
        challengeLimiter,
        sessionsChanged,
        ...(options.sessionOpened ? { sessionOpened: options.sessionOpened } : {}),
      }),
    )
    .route('/api/demo', demoRoutes(options.guidedDemo, { store: options.store, clock }, limits))
    .route('/api/me', operators.me)
    .route('/api/presence', operators.presence)
    .route(
      '/mcp',
      mcpRoutes(
        options.mcp && {
          sessions: options.mcp,
          opens: new TokenBucketLimiter({ ...limits.authPerAddress, clock }),
        },
      ),
    )
    .route('/api/operators', admin.operators)
    .route('/api/activity', admin.activity);
  if (options.rooms)
    app.route('/api/rooms', roomRoutes(options.rooms)).route('/api/rooms', roomHealthRoutes(options.rooms));
  if (options.agents)
    app.route('/api/agent-accounts', agentAccountRoutes(options.agents, { store: options.store, clock }, limits));
  if (options.inbox)
    app.route(
      '/api/inbox',
      inboxRoutes({
        inbox: options.inbox.service,
        store: options.store,
        clock,
        sessionsChanged: watchSessions,
        ...(options.inbox.streams ? { streams: options.inbox.streams } : {}),
      }),
    );
  app.route('/', spaRoutes(options.staticDir));
  app.notFound((c) => handleError(new CodedError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}.`), c));
  app.onError(handleError);
  return app;
}

export type AppType = ReturnType<typeof createApp>;
