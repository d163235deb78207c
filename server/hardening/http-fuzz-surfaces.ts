// The HTTP fuzz's generators, one per route of the app (http-fuzz.test.ts), keyed `METHOD path`
// exactly as Hono lists them in app.routes: a route without one fails the test.
import fc from 'fast-check';
import { signNegotiationDocument } from '@shared/negotiation/documents';
import type { NegotiationParty } from '@agents/negotiation/negotiation-client';
import { MAX_REQUEST_BODY_BYTES } from '../http/request-body';
import { AGENT_ROUTE_BODY_BYTES } from '../routes/agent-accounts';
import { AUTH_BODY_LIMIT_BYTES } from '../routes/auth';
import {
  agentA,
  badIndex,
  badQueryValue,
  client,
  cookieVariants,
  inputless,
  json,
  junkSegment,
  publicRead,
  RUNS,
  strangerKey,
  surfaceKinds,
  type FuzzContext,
  type Surface,
} from './http-fuzz-arbitraries';

/** The negotiation's parties and the test's clock, beside what the surface builders need. */
export interface SurfacesContext extends FuzzContext {
  readonly now: () => number;
  readonly buyer: NegotiationParty;
  readonly seller: NegotiationParty;
  readonly stranger: NegotiationParty;
}

/** The generators, keyed `METHOD path` exactly as Hono lists them in app.routes. */
export function fuzzSurfaces(ctx: SurfacesContext): Record<string, Surface> {
  const { origin, negotiationId, buyer, seller, stranger } = ctx;
  const { envelope } = ctx.envelopes;
  const { bodyRoute, sessionRead, signedRelayPost, negotiationPost, sessionRoute } = surfaceKinds(ctx);
  const negotiation = (event: string) => `/oap/negotiation/${negotiationId}/${event}`;
  const at = () => new Date(ctx.now()).toISOString();
  // Out of order for RFC 0002: no proposal exists yet, so accept and reject refer to nothing;
  // a stranger is not a party; an unsigned co-signature before any agreement.
  const acceptFirst = () =>
    signNegotiationDocument(
      {
        type: 'accept',
        negotiation_id: negotiationId,
        proposal_id: 'prp_none',
        by: seller.did,
        at: at(),
        salt_seed: 'c2VlZA',
        agreement_signature: 'AAAA',
      } as never,
      seller.identity.secretKey,
    ) as unknown as Record<string, unknown>;
  const rejectFirst = () =>
    seller.rejectionDocument({ negotiation_id: negotiationId, history: [] } as never) as unknown as Record<
      string,
      unknown
    >;
  const strangerWithdraw = () => stranger.withdrawalDocument(negotiationId) as unknown as Record<string, unknown>;
  const proposalByStranger = () =>
    signNegotiationDocument(
      {
        type: 'propose',
        negotiation_id: negotiationId,
        proposal_id: 'prp_x',
        by: stranger.did,
        round: 1,
        terms: { price_per_call_eur: '1' },
        at: at(),
        valid_until: new Date(ctx.now() + 600_000).toISOString(),
      } as never,
      stranger.identity.secretKey,
    ) as unknown as Record<string, unknown>;
  const cosignEarly = () => ({ by: buyer.did, signature: 'A'.repeat(86) });
  // Out of order for Agora: ACCEPT and RESULT on a thread whose REQUEST has no OFFER, and on a
  // thread that never started; a stranger's CANCEL.
  const agoraOutOfOrder = () =>
    fc
      .constantFrom<() => unknown>(
        () => envelope('ACCEPT', client, { thread: 'thr_open' }),
        () => envelope('RESULT', agentA, { thread: 'thr_open', to: client }),
        () => envelope('ACCEPT', client, { thread: `thr_never_${ctx.envelopes.count()}` }),
        () => envelope('OFFER', agentA, { thread: `thr_never_${ctx.envelopes.count()}`, to: client }),
        () => envelope('CANCEL', strangerKey, { thread: 'thr_open' }),
      )
      .map((make) => json(make()));
  const room = (rest = '') => `/api/rooms/ops${rest}`;
  const roomParam = (rest = '') => junkSegment.map((id) => `/api/rooms/${id}${rest}`);

  return {
    'GET /health': inputless('/health'),
    'GET /ready': inputless('/ready'),
    'GET /openapi.json': inputless('/openapi.json'),
    'GET /metrics': inputless('/metrics'),
    'GET /oap/manifest': inputless('/oap/manifest'),
    'GET /api/auth/challenge': inputless('/api/auth/challenge', ['login_challenges']),
    'POST /events': signedRelayPost('/events', agoraOutOfOrder),
    'GET /events': publicRead(
      fc
        .tuple(
          fc.constantFrom('since', 'limit', 'timeout', 'type', 'recipient', 'repeat', 'missing-since'),
          badQueryValue,
        )
        .map(([param, value]) => {
          const good = `since=cur_0&timeout=0`;
          if (param === 'since') return `/events?since=x${value}&timeout=0`;
          if (param === 'repeat') return `/events?${good}&since=cur_1`;
          if (param === 'missing-since') return `/events?timeout=0&limit=${value}`;
          if (param === 'type') return `/events?${good}&type=NOPE${value}`;
          if (param === 'recipient') return `/events?${good}&recipient=${'d'.repeat(600)}`;
          return `/events?${good}&${param}=${value === '0' && param === 'timeout' ? '-1' : `x${value}`}`;
        }),
    ),
    'GET /agents': publicRead(
      fc
        .tuple(fc.constantFrom('capability', 'scope'), fc.constantFrom('', '%20', 'PRIVATE!', 'a b', '../x'))
        .map(([k, v]) => `/agents?${k}=${v}&${k}=${v || 'x'}`),
    ),
    'POST /agents': signedRelayPost('/agents', () =>
      fc
        .constant(null)
        .map(() =>
          json(envelope('REQUEST', client, { payload: { intent: 'directory.register', params: { nope: true } } })),
        ),
    ),
    'POST /agents/query': signedRelayPost('/agents/query', () =>
      fc.constantFrom('osnap.agents_query', 'osnap.tools_query', 'translation.en_zh').map((intent) =>
        json(
          envelope('REQUEST', client, {
            payload: { intent, params: { message_type: 'agents_query', sender_agent_id: agentA.did } },
          }),
        ),
      ),
    ),
    'GET /agents/:did/tools': publicRead(junkSegment.map((did) => `/agents/${did}/tools`)),
    'GET /agents/:did/agent-card.json': publicRead(junkSegment.map((did) => `/agents/${did}/agent-card.json`)),
    // /seed needs a facilitator; under a good session it would seed (a valid
    // request), so only bad sessions are fuzzed here.
    'POST /seed': {
      bad: fc.tuple(cookieVariants(), fc.constantFrom('', '{}', '{"x":')).map(([headers, body]) => ({
        label: 'no-session',
        method: 'POST',
        path: '/seed',
        headers: { origin, ...headers },
        body,
      })),
      runs: RUNS.body,
    },
    // The setup's negotiation id again, validly signed: NEGOTIATION_ID_REUSED.
    'POST /oap/negotiation/open': negotiationPost(
      () => '/oap/negotiation/open',
      () => {
        const { signature: _unused, ...fields } = buyer.openDocument(seller.did, {
          category: 'pricing',
          mine: 'public',
          theirs: 'public',
        }) as unknown as Record<string, unknown>;
        return [
          signNegotiationDocument(
            { ...fields, negotiation_id: negotiationId } as never,
            buyer.identity.secretKey,
          ) as unknown as Record<string, unknown>,
        ];
      },
    ),
    'GET /oap/negotiation/:id': publicRead(junkSegment.map((id) => `/oap/negotiation/${id}`)),
    'GET /oap/negotiation/:id/agreement': publicRead(
      fc
        .oneof(
          junkSegment,
          fc.constant(null).map(() => negotiationId),
        )
        .map((id) => `/oap/negotiation/${id}/agreement`),
    ),
    'POST /oap/negotiation/:id/agreement/cosign': negotiationPost(
      () => negotiation('agreement/cosign'),
      () => [cosignEarly()],
    ),
    'POST /oap/negotiation/:id/propose': negotiationPost(
      () => negotiation('propose'),
      () => [proposalByStranger()],
    ),
    'POST /oap/negotiation/:id/accept': negotiationPost(
      () => negotiation('accept'),
      () => [acceptFirst()],
    ),
    'POST /oap/negotiation/:id/reject': negotiationPost(
      () => negotiation('reject'),
      () => [rejectFirst()],
    ),
    'POST /oap/negotiation/:id/withdraw': negotiationPost(
      () => negotiation('withdraw'),
      () => [strangerWithdraw()],
    ),
    'GET /oap/transparency-log': publicRead(
      fc
        .tuple(
          fc.constantFrom('from', 'limit'),
          badQueryValue.filter((v) => !/^\d+$/.test(v) || v === '0' || v.length > 5),
        )
        .map(([k, v]) =>
          k === 'from' ? `/oap/transparency-log?from=x${v}` : `/oap/transparency-log?limit=${v === '' ? '0' : `x${v}`}`,
        ),
    ),
    'GET /oap/transparency-log/:index': publicRead(badIndex.map((i) => `/oap/transparency-log/${i}`)),
    'GET /oap/transparency-log/:index/proof': publicRead(badIndex.map((i) => `/oap/transparency-log/${i}/proof`)),
    'POST /oap/transparency-log/:index/redact': negotiationPost(
      () => '/oap/transparency-log/0/redact',
      () => [{ type: 'redaction_request', index: 0, by: buyer.did, fields: ['x'], at: at(), signature: 'AAAA' }],
    ),
    'GET /api/negotiations': sessionRead(
      () => '/api/negotiations',
      fc
        .constantFrom('state=NOPE', 'limit=0', 'limit=x', 'party=', `category=${'c'.repeat(70)}`)
        .map((q) => `/api/negotiations?${q}`),
    ),
    'GET /api/negotiations/:id': sessionRead(
      () => '/api/negotiations/neg_unknown',
      junkSegment.map((id) => `/api/negotiations/${id}`),
    ),
    'GET /api/agora/threads': sessionRead(
      () => '/api/agora/threads',
      fc.constantFrom('status=NOPE', 'limit=0', 'limit=201', 'party=').map((q) => `/api/agora/threads?${q}`),
    ),
    'GET /api/agora/threads/:id': sessionRead(
      () => '/api/agora/threads/x',
      junkSegment.map((id) => `/api/agora/threads/${id}`),
    ),
    'GET /api/scheduling/threads': sessionRead(() => '/api/scheduling/threads'),
    'GET /api/scheduling/threads/:id': sessionRead(
      () => '/api/scheduling/threads/x',
      junkSegment.map((id) => `/api/scheduling/threads/${id}`),
    ),
    'GET /api/scheduling/threads/:id/standing': sessionRead(
      () => '/api/scheduling/threads/x/standing?revision=1',
      fc.oneof(
        junkSegment.map((id) => `/api/scheduling/threads/${id}/standing?revision=1`),
        fc
          .constantFrom('', 'revision=', 'revision=-1', 'revision=1.5', 'revision=1e3', 'revision=9999999999')
          .map((q) => `/api/scheduling/threads/x/standing?${q}`),
      ),
    ),
    'GET /api/tasks': sessionRead(() => '/api/tasks'),
    'POST /api/ledger/burns': signedRelayPost('/api/ledger/burns', () =>
      fc
        .constant(null)
        .map(() => json(envelope('REQUEST', client, { payload: { intent: 'oapp.burn', params: { amount: -1 } } }))),
    ),
    'GET /api/ledger/burns/:txId': publicRead(junkSegment.map((id) => `/api/ledger/burns/${id}`)),
    'GET /api/ledger/balances/:did': publicRead(junkSegment.map((id) => `/api/ledger/balances/${id}`)),
    'GET /api/services': sessionRead(() => '/api/services'),
    'POST /api/services': bodyRoute(
      'POST',
      () => '/api/services',
      { name: 'Relay', url: 'http://127.0.0.1:9/', kind: 'relay' },
      'facilitator',
      MAX_REQUEST_BODY_BYTES,
    ),
    'DELETE /api/services/:id': sessionRoute(
      'DELETE',
      junkSegment.map((id) => `/api/services/${id}`),
    ),
    'GET /api/services/watched': sessionRead(() => '/api/services/watched'),
    'POST /api/services/watched': bodyRoute(
      'POST',
      () => '/api/services/watched',
      { did: agentA.did },
      'facilitator',
      MAX_REQUEST_BODY_BYTES,
    ),
    'DELETE /api/services/watched/:did': sessionRoute(
      'DELETE',
      junkSegment.map((did) => `/api/services/watched/${did}`),
    ),
    'GET /api/webhooks': sessionRead(() => '/api/webhooks'),
    // Its template names a loopback address: refused by the address policy, so nothing is written.
    'POST /api/webhooks': bodyRoute(
      'POST',
      () => '/api/webhooks',
      { url: 'http://127.0.0.1:9/hook', events: ['inbox.item.added'], kinds: ['review'] },
      'facilitator',
      8 * 1024,
    ),
    'DELETE /api/webhooks/:id': sessionRoute(
      'DELETE',
      junkSegment.map((id) => `/api/webhooks/${id}`),
    ),
    'POST /api/webhooks/:id/test': sessionRoute(
      'POST',
      junkSegment.map((id) => `/api/webhooks/${id}/test`),
    ),
    'GET /api/directory/imports': sessionRead(() => '/api/directory/imports'),
    // Its template names a loopback address: refused by the address guard, so nothing is fetched or written.
    'POST /api/directory/imports': bodyRoute(
      'POST',
      () => '/api/directory/imports',
      { url: 'http://127.0.0.1:9/.well-known/agent-card.json' },
      'facilitator',
      4 * 1024,
    ),
    'DELETE /api/directory/imports/:id': sessionRoute(
      'DELETE',
      junkSegment.map((id) => `/api/directory/imports/${id}`),
    ),
    'GET /api/external/threads': sessionRead(() => '/api/external/threads'),
    'GET /api/external/negotiations': sessionRead(() => '/api/external/negotiations'),
    'GET /api/external/:serviceId/threads/:threadId': sessionRead(
      () => '/api/external/svc_x/threads/t',
      fc.tuple(junkSegment, junkSegment).map(([s, t]) => `/api/external/${s}/threads/${t}`),
    ),
    'POST /api/external/:serviceId/events': sessionRoute(
      'POST',
      junkSegment.map((id) => `/api/external/${id}/events`),
      json(envelope('REQUEST')),
    ),
    'GET /api/external/:serviceId/oap/*': sessionRead(
      () => '/api/external/svc_x/oap/negotiation/x',
      fc.tuple(junkSegment, junkSegment).map(([s, rest]) => `/api/external/${s}/oap/${rest}`),
    ),
    'POST /api/external/:serviceId/oap/*': sessionRoute(
      'POST',
      fc.tuple(junkSegment, junkSegment).map(([s, rest]) => `/api/external/${s}/oap/${rest}`),
      '{}',
    ),
    'POST /api/auth/login': bodyRoute(
      'POST',
      () => '/api/auth/login',
      { did: client.did, nonce: 'bm9uY2U', signature: 'c2ln' },
      'none',
      AUTH_BODY_LIMIT_BYTES,
    ),
    'POST /api/auth/enroll': bodyRoute(
      'POST',
      () => '/api/auth/enroll',
      { did: client.did, nonce: 'bm9uY2U', signature: 'c2ln', token: 'dG9rZW4' },
      'none',
      AUTH_BODY_LIMIT_BYTES,
    ),
    'GET /api/auth/session': sessionRead(() => '/api/auth/session'),
    // Without a session cookie there is nothing to end: 204 and no write, whatever the body.
    'POST /api/auth/logout': {
      ...inputless('/api/auth/logout'),
      bad: fc.tuple(cookieVariants(), fc.string({ maxLength: 50 })).map(([headers, body]) => ({
        label: 'no-session',
        method: 'POST',
        path: '/api/auth/logout',
        headers: { origin, ...headers },
        body,
      })),
    },
    'POST /api/demo/negotiation': sessionRoute('POST', fc.constant('/api/demo/negotiation'), '{}', false),
    'GET /api/demo/names': sessionRead(() => '/api/demo/names'),
    'ALL /mcp': mcpSurface(),
    'GET /api/rooms': sessionRead(() => '/api/rooms'),
    'POST /api/rooms': bodyRoute(
      'POST',
      () => '/api/rooms',
      { id: 'fuzzed', name: 'Fuzzed' },
      'facilitator',
      MAX_REQUEST_BODY_BYTES,
    ),
    'GET /api/rooms/:id': sessionRead(() => room(), roomParam()),
    'PATCH /api/rooms/:id': bodyRoute(
      'PATCH',
      () => room(),
      { moderation: 'review' },
      'facilitator',
      MAX_REQUEST_BODY_BYTES,
    ),
    'GET /api/rooms/:id/messages': sessionRead(
      () => room('/messages'),
      fc.oneof(
        roomParam('/messages'),
        fc
          .constantFrom('before=x', 'after=-1', 'before=1&after=2', 'limit=0', 'topic=nope', 'limit=1e3')
          .map((q) => room(`/messages?${q}`)),
      ),
    ),
    'GET /api/rooms/:id/agents': sessionRead(() => room('/agents'), roomParam('/agents')),
    'GET /api/rooms/:id/grants': sessionRead(() => room('/grants'), roomParam('/grants')),
    'GET /api/rooms/:id/tasks': sessionRead(() => room('/tasks'), roomParam('/tasks')),
    'GET /api/rooms/:id/health': sessionRead(() => room('/health'), roomParam('/health')),
    // Agents: none exists here, so every act names an unknown one (404) or is refused before.
    'GET /api/agent-accounts': sessionRead(() => '/api/agent-accounts'),
    'POST /api/agent-accounts': bodyRoute(
      'POST',
      () => '/api/agent-accounts',
      { agentId: 'fuzzed.agent' },
      'facilitator',
      AGENT_ROUTE_BODY_BYTES,
    ),
    'GET /api/agent-accounts/:agentId': sessionRead(
      () => '/api/agent-accounts/nobody',
      junkSegment.map((s) => `/api/agent-accounts/${s}`),
    ),
    'DELETE /api/agent-accounts/:agentId': sessionRoute(
      'DELETE',
      junkSegment.map((s) => `/api/agent-accounts/${s}`),
    ),
    ...Object.fromEntries(
      (['rotate', 'disconnect', 'resume'] as const).map((act) => [
        `POST /api/agent-accounts/:agentId/${act}`,
        sessionRoute(
          'POST',
          junkSegment.map((s) => `/api/agent-accounts/${s}/${act}`),
        ),
      ]),
    ),
    'POST /api/agent-accounts/:agentId/suspend': bodyRoute(
      'POST',
      () => '/api/agent-accounts/nobody/suspend',
      { reason: 'fuzzed' },
      'facilitator',
      AGENT_ROUTE_BODY_BYTES,
    ),
    'GET /api/rooms/:id/review': sessionRead(
      () => room('/review'),
      fc.oneof(
        roomParam('/review'),
        fc.constantFrom('status=nope', 'status=', 'status=PENDING').map((q) => room(`/review?${q}`)),
      ),
    ),
    'POST /api/rooms/:id/review/:item/approve': sessionRoute(
      'POST',
      fc.oneof(badIndex, fc.integer({ min: 0, max: 1e6 }).map(String)).map((item) => room(`/review/${item}/approve`)),
    ),
    'POST /api/rooms/:id/review/:item/reject': bodyRoute(
      'POST',
      () => room('/review/1/reject'),
      { reason: 'no' },
      'facilitator',
      MAX_REQUEST_BODY_BYTES,
    ),
    // Settling a review queue (decisions-server.md §86), in a room that does not exist.
    'POST /api/rooms/:id/review/settle': bodyRoute(
      'POST',
      () => '/api/rooms/no-such-room/review/settle',
      { decision: 'release' },
      'facilitator',
      MAX_REQUEST_BODY_BYTES,
    ),
    // Operators and invitations (§84): facilitators only; junk dids and link ids are unknown.
    'GET /api/operators': sessionRead(() => '/api/operators'),
    'POST /api/operators/invites': bodyRoute(
      'POST',
      () => '/api/operators/invites',
      // Every field required, so no variant of it is a valid invitation.
      { role: 'observer' },
      'facilitator',
      4 * 1024,
    ),
    'DELETE /api/operators/invites/:id': sessionRoute(
      'DELETE',
      junkSegment.map((s) => `/api/operators/invites/${s}`),
    ),
    'PATCH /api/operators/:did': bodyRoute(
      'PATCH',
      () => '/api/operators/did%3Akey%3Az6MkNobodyEnrolledHere',
      { role: 'observer' },
      'facilitator',
      4 * 1024,
    ),
    'DELETE /api/operators/:did': sessionRoute(
      'DELETE',
      junkSegment.map((s) => `/api/operators/${s}`),
    ),
    // The activity log (§83): paged by keyset, filters checked.
    'GET /api/activity': sessionRead(
      () => '/api/activity',
      fc
        .constantFrom('before=x', 'before=-1', 'limit=0', 'limit=abc', 'limit=1e9', 'kind=nope')
        .map((q) => `/api/activity?${q}`),
    ),
    'PATCH /api/me': bodyRoute('PATCH', () => '/api/me', { name: 'Ana' }, 'operator', 4 * 1024),
    'POST /api/presence': bodyRoute('POST', () => '/api/presence', { where: '/rooms/ops' }, 'operator', 4 * 1024),
    'GET /api/presence': sessionRead(
      () => '/api/presence?where=/rooms/ops',
      fc
        .constantFrom(
          '',
          'where=',
          'where=rooms',
          'where=/a%20b',
          'where=//',
          'where=/%3Cb%3E',
          `where=${'/x'.repeat(101)}`,
        )
        .map((q) => `/api/presence?${q}`),
    ),
    'GET /api/rooms/:id/audit': sessionRead(
      () => room('/audit'),
      fc.oneof(
        roomParam('/audit'),
        fc.constantFrom('before=x', 'limit=-1', 'limit=abc').map((q) => room(`/audit?${q}`)),
      ),
    ),
    // The SPA's catch-all: unknown paths under the server's prefixes are a coded 404.
    'GET /*': publicRead(
      fc
        .tuple(
          fc.constantFrom('/api/', '/oap/', '/events/', '/agents/x/', '/health/', '/seed/', '/mqtt/', '/openapi.json/'),
          junkSegment,
        )
        .map(([prefix, rest]) => `${prefix}fuzz-${rest}`),
    ),
  };
}

/**
 * /mcp (decisions-mcp.md §1): every method, with no credential, a malformed or wrong one (no agent
 * holds a credential in the fuzz's store), a session id nobody opened, and junk or non-initialize
 * bodies. Each is refused before a session exists.
 */
function mcpSurface(): Surface {
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
  const initialize = json({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
  });
  return {
    bad: fc
      .tuple(
        fc.constantFrom('POST', 'GET', 'DELETE', 'PUT'),
        fc.constantFrom<Record<string, string>>(
          {},
          { authorization: 'Bearer x' },
          { authorization: basic('agent.nobody:wrong') },
          { authorization: basic(':') },
          { authorization: `Basic ${'A'.repeat(2000)}` },
          { authorization: basic('agent.nobody:wrong'), 'mcp-session-id': 'forged' },
          { 'mcp-session-id': '00000000-0000-4000-8000-000000000000' },
        ),
        fc.oneof(
          fc.constant(initialize),
          fc.constant(json({ jsonrpc: '2.0', id: 2, method: 'tools/list' })),
          fc.constant(json([{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'post' } }])),
          fc.string({ maxLength: 80 }),
          fc.jsonValue({ maxDepth: 3 }).map(json),
        ),
      )
      .map(([method, headers, body]) => ({
        label: `${method} ${Object.keys(headers).join('+') || 'no-auth'}`,
        method,
        path: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        ...(method === 'POST' || method === 'PUT' ? { body } : {}),
      })),
    runs: RUNS.body,
  };
}
