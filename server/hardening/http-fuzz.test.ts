// HTTP fuzz: every route of the real app, over a real SQLite store and a real
// embedded broker, fed hostile requests by fast-check from fixed seeds. Every route in
// `app.routes` must have a generator here (a new endpoint without one fails the first test).
// Each case must answer a coded 4xx (`{ code, … }`), never a 5xx, and change no row of any table
// (a SHA-256 of every table before and after each case). Cases per surface are printed at the end
// and reported in docs/security.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draft, party } from '@shared/agora/test-support/fixtures';
import type { MessageType, UnsignedEnvelope } from '@shared/agora/envelope';
import { signEnvelope } from '@shared/agora/sign-envelope';
import { signNegotiationDocument } from '@shared/negotiation/documents';
import { testApp } from '../test-support/test-app';
import { NegotiationParty, seededBytes } from '@agents/negotiation/negotiation-client';
import { negotiationIdentity } from '../demo/demo-identity';
import { mulberry32 } from '../demo/prng';
import { UNLIMITED_HTTP_LIMITS } from '../http/limits';
import { MAX_NEGOTIATION_BODY_BYTES } from '../routes/negotiation';
import { AUTH_BODY_LIMIT_BYTES } from '../routes/auth';
import { MAX_ENVELOPE_BYTES } from '../relay/agora-relay';
import { MAX_REQUEST_BODY_BYTES } from '../http/request-body';
import { PresenceTracker } from '../rooms/presence-tracker';
import { sessionCookie } from '../test-support/sessions';
import { startRoomHarness, type RoomHarness } from '../test-support/room-harness';
import { hostileBody, oversizeBody, type HostileBody } from './hostile-bodies';
import { changedTables, openTableDigest } from './table-digest';

const SEED = 9_2026;
/** fast-check runs per surface; each surface also runs its fixed cases (oversize body, …). */
export const RUNS = { body: 150, read: 60 } as const;

interface BadRequest {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Uint8Array;
}

interface Surface {
  /** fast-check arbitrary of hostile requests (each must be refused). */
  readonly bad: fc.Arbitrary<BadRequest>;
  /** Deterministic cases run once each (oversize bodies). */
  readonly fixed?: readonly BadRequest[];
  readonly runs: number;
  /**
   * 'refused' (default): a coded 4xx. 'ignored': the route takes no input, so junk in the query
   * is ignored: any status below 500, coded when ≥ 400.
   */
  readonly expect?: 'refused' | 'ignored';
  /** Tables this route may legitimately write whatever the input (GET /api/auth/challenge). */
  readonly mayWrite?: readonly string[];
}

let dir: string;
let h: RoomHarness;
let presence: PresenceTracker;
let app: ReturnType<typeof testApp>;
let digest: ReturnType<typeof openTableDigest>;
let origin: string;
let facilitator: string;
let observer: string;
const casesRun = new Map<string, number>();
const statuses = new Map<string, Map<number, number>>();

const client = party(1);
const agentA = party(2);
const strangerKey = party(4);
let negotiationId = '';
const rng = mulberry32(11);
let buyer: NegotiationParty;
let seller: NegotiationParty;
let stranger: NegotiationParty;
let unique = 0;

const json = (body: unknown) => JSON.stringify(body);
const enc = encodeURIComponent;

/** A signed Agora envelope, timestamped now (the relay's window), unique per call. */
function envelope(
  type: MessageType,
  from = client,
  overrides: { thread?: string; to?: typeof client; payload?: Record<string, unknown> } = {},
) {
  unique++;
  const unsigned = draft(type, {
    from,
    ...(overrides.to ? { to: overrides.to } : { to: agentA }),
    id: `msg_fuzz_${unique}`,
    ts: h.clock.now,
    thread: overrides.thread ?? `thr_fuzz_${unique}`,
    ...(overrides.payload ? { payload: overrides.payload } : {}),
    meta: { ttl: 3600, hop: 0 },
  });
  return signEnvelope(unsigned as UnsignedEnvelope, from.secretKey);
}

/** A signed document whose signature no longer matches: a field changed, the signature cut, or dropped. */
const tampered = (signed: Record<string, unknown>, sigField: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc
      .constantFrom(...Object.keys(signed).filter((k) => k !== sigField && typeof signed[k] === 'string'))
      .map((k) => json({ ...signed, [k]: `${String(signed[k])}x` })),
    fc.constant(
      json({
        ...signed,
        [sigField]: String(signed[sigField]).slice(0, -2) + (String(signed[sigField]).endsWith('AA') ? 'BB' : 'AA'),
      }),
    ),
    fc.constant(json(Object.fromEntries(Object.entries(signed).filter(([k]) => k !== sigField)))),
    fc.constant(json({ ...signed, [sigField]: 'not-a-signature' })),
  );

const asBody = (b: HostileBody) => ({ label: b.kind, body: b.body });
const cookieVariants = () =>
  fc.constantFrom<Record<string, string>>(
    {},
    { cookie: 'sb_session=forged' },
    { cookie: 'sb_session=' + 'A'.repeat(43) },
    { cookie: 'other=1' },
  );

/** A POST/PATCH with a body: hostile bodies under a good session, and any body under a bad one. */
function bodyRoute(
  method: string,
  path: () => string,
  template: Record<string, unknown>,
  auth: 'facilitator' | 'none' | 'signed',
  limit: number,
): Surface {
  const session: Record<string, string> = auth === 'facilitator' ? { cookie: facilitator, origin } : {};
  const hostile = hostileBody(template).map((b) => ({
    method,
    path: path(),
    headers: { 'content-type': 'application/json', ...session },
    ...asBody(b),
  }));
  const badSession = fc.tuple(cookieVariants(), fc.constantFrom(json(template), '{}')).map(([headers, body]) => ({
    label: 'no-session',
    method,
    path: path(),
    headers: { 'content-type': 'application/json', origin, ...headers },
    body,
  }));
  const observerSession = fc.constant({
    label: 'observer-role',
    method,
    path: path(),
    headers: { 'content-type': 'application/json', origin, cookie: observer },
    body: json(template),
  });
  return {
    bad: auth === 'facilitator' ? fc.oneof(hostile, badSession, observerSession) : hostile,
    fixed: [
      {
        label: 'oversize',
        method,
        path: path(),
        headers: { 'content-type': 'application/json', ...session },
        body: oversizeBody(limit),
      },
    ],
    runs: RUNS.body,
  };
}

/** A GET under a session: bad sessions are refused; `params` (if any) gives bad path/query input under a good one. */
function sessionRead(path: () => string, params?: fc.Arbitrary<string>): Surface {
  const noSession = cookieVariants().map((headers) => ({ label: 'no-session', method: 'GET', path: path(), headers }));
  const badParams = params?.map((p) => ({
    label: 'bad-params',
    method: 'GET',
    path: p,
    headers: { cookie: observer },
  }));
  return { bad: badParams ? fc.oneof(noSession, badParams) : noSession, runs: RUNS.read };
}

/** A public GET taking no input: junk query strings and headers are ignored. */
const inputless = (path: string, mayWrite?: readonly string[]): Surface => ({
  bad: fc
    .tuple(
      fc.string({ maxLength: 40 }),
      fc.constantFrom<Record<string, string>>({}, { cookie: 'sb_session=forged' }, { accept: '*/*;q=x' }),
    )
    .map(([q, headers]) => ({
      label: 'junk-query',
      method: 'GET',
      path: `${path}?${enc(q)}=${enc(q)}&${q.replace(/[#]/g, '')}`,
      headers,
    })),
  runs: RUNS.read,
  expect: 'ignored',
  ...(mayWrite ? { mayWrite } : {}),
});

/** A public GET whose path or query is the input: every generated one is invalid or unknown. */
const publicRead = (paths: fc.Arbitrary<string>): Surface => ({
  bad: paths.map((path) => ({ label: 'bad-params', method: 'GET', path })),
  runs: RUNS.read,
});

const junkSegment = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 60 }),
    fc.constantFrom('a..b', '%00', '%ff', 'a'.repeat(2000), '-1', '1e309', 'null', '__proto__', 'constructor'),
  )
  .map((s) => (s.startsWith('%') ? s : enc(s)));
const badIndex = fc.oneof(
  fc.constantFrom('-1', '01', '1.5', 'x', '9'.repeat(20), '%ff'),
  fc.integer({ min: 1_000, max: 1e9 }).map(String),
);
const badQueryValue = fc.oneof(
  fc.constantFrom('-1', '0', 'abc', '1e400', '%ff', '', 'NaN', '999999999'),
  fc.string({ maxLength: 20 }).map(enc),
);

/** Relay POSTs (signed envelopes): hostile bodies, tampered signatures, out-of-order messages. */
function signedRelayPost(path: string, outOfOrder: () => fc.Arbitrary<string>): Surface {
  const template = envelope('REQUEST') as unknown as Record<string, unknown>;
  const hostile = hostileBody(template).map((b) => ({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    ...asBody(b),
  }));
  const badSig = fc
    .constant(null)
    .chain(() => tampered(envelope('REQUEST') as unknown as Record<string, unknown>, 'sig'))
    .map((body) => ({
      label: 'bad-signature',
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      body,
    }));
  const order = outOfOrder().map((body) => ({
    label: 'out-of-order',
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    body,
  }));
  return {
    bad: fc.oneof(hostile, badSig, order),
    fixed: [
      {
        label: 'oversize',
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json' },
        body: oversizeBody(MAX_ENVELOPE_BYTES),
      },
    ],
    runs: RUNS.body,
  };
}

/** RFC 0002 POSTs: hostile bodies, tampered signatures, a document for another negotiation or party. */
function negotiationPost(path: () => string, documents: () => Record<string, unknown>[]): Surface {
  const docs = documents();
  const hostile = hostileBody(docs[0]!).map((b) => ({
    method: 'POST',
    path: path(),
    headers: { 'content-type': 'application/json' },
    ...asBody(b),
  }));
  const badSig = fc
    .constantFrom(...docs)
    .chain((d) => tampered(d, 'signature'))
    .map((body) => ({
      label: 'bad-signature',
      method: 'POST',
      path: path(),
      headers: { 'content-type': 'application/json' },
      body,
    }));
  const wrongPlace = fc
    .tuple(fc.constantFrom(...docs), fc.constantFrom('neg_unknown', 'x'.repeat(300), '%ff'))
    .map(([doc, id]) => ({
      label: 'unknown-id',
      method: 'POST',
      path: path().replace(negotiationId, id),
      headers: { 'content-type': 'application/json' },
      body: json(doc),
    }));
  return {
    bad: fc.oneof(hostile, badSig, wrongPlace),
    fixed: [
      {
        label: 'oversize',
        method: 'POST',
        path: path(),
        headers: { 'content-type': 'application/json' },
        body: oversizeBody(MAX_NEGOTIATION_BODY_BYTES),
      },
    ],
    runs: RUNS.body,
  };
}

/** The generators, keyed `METHOD path` exactly as Hono lists them in app.routes. */
function surfaces(): Record<string, Surface> {
  const negotiation = (event: string) => `/oap/negotiation/${negotiationId}/${event}`;
  const at = () => new Date(h.clock.now).toISOString();
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
        valid_until: new Date(h.clock.now + 600_000).toISOString(),
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
        () => envelope('ACCEPT', client, { thread: `thr_never_${unique}` }),
        () => envelope('OFFER', agentA, { thread: `thr_never_${unique}`, to: client }),
        () => envelope('CANCEL', strangerKey, { thread: 'thr_open' }),
      )
      .map((make) => json(make()));
  const room = (rest = '') => `/api/rooms/ops${rest}`;
  const roomParam = (rest = '') => junkSegment.map((id) => `/api/rooms/${id}${rest}`);

  return {
    'GET /health': inputless('/health'),
    'GET /ready': inputless('/ready'),
    'GET /openapi.json': inputless('/openapi.json'),
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

/** A cookie-authenticated route with a path parameter: unknown or malformed ids under a good session; bad sessions. */
function sessionRoute(method: string, paths: fc.Arbitrary<string>, body = '{}', withSession = true): Surface {
  const bad = fc.tuple(paths, cookieVariants()).map(([path, headers]) => ({
    label: 'no-session',
    method,
    path,
    headers: { 'content-type': 'application/json', origin, ...headers },
    body,
  }));
  const observerTry = paths.map((path) => ({
    label: 'observer-role',
    method,
    path,
    headers: { 'content-type': 'application/json', origin, cookie: observer },
    body,
  }));
  const good = paths.map((path) => ({
    label: 'bad-params',
    method,
    path,
    headers: { 'content-type': 'application/json', origin, cookie: facilitator },
    body,
  }));
  return { bad: withSession ? fc.oneof(bad, observerTry, good) : fc.oneof(bad, observerTry), runs: RUNS.body };
}

async function send(r: BadRequest): Promise<Response> {
  return app.request(r.path, {
    method: r.method,
    headers: r.headers ?? {},
    ...(r.body === undefined ? {} : { body: r.body as BodyInit }),
  });
}

async function check(key: string, surface: Surface, r: BadRequest): Promise<void> {
  const before = digest.digest();
  const res = await send(r);
  const text = await res.text();
  const after = digest.digest();
  const tally = statuses.get(key) ?? new Map<number, number>();
  tally.set(res.status, (tally.get(res.status) ?? 0) + 1);
  statuses.set(key, tally);
  casesRun.set(key, (casesRun.get(key) ?? 0) + 1);
  const where = `${key} [${r.label}] ${r.method} ${r.path.slice(0, 120)} → ${res.status} ${text.slice(0, 200)}`;
  expect(res.status, where).toBeLessThan(500);
  if (surface.expect !== 'ignored' || res.status >= 400) {
    expect(res.status, where).toBeGreaterThanOrEqual(400);
    const body = JSON.parse(text) as { code?: unknown };
    expect(typeof body.code, where).toBe('string');
  }
  const changed = changedTables(before, after).filter((t) => !surface.mayWrite?.some((m) => t.startsWith(`${m} `)));
  expect(changed, `${where}: wrote to`).toEqual([]);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-http-fuzz-'));
  const staticDir = join(dir, 'static');
  rmSync(staticDir, { recursive: true, force: true });
  await import('node:fs').then((fs) => fs.mkdirSync(staticDir));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Switchboard</title>');
  h = await startRoomHarness({ dataDir: dir });
  presence = new PresenceTracker(h.broker, () => h.clock.now);
  const clock = { now: () => h.clock.now };
  app = testApp({
    staticDir,
    store: h.store,
    clock,
    rooms: { store: h.store, clock, rooms: h.rooms, presence, gateway: h.gateway },
    limits: UNLIMITED_HTTP_LIMITS,
  });
  origin = 'http://localhost';
  facilitator = await sessionCookie(h.store, 'did:key:z6MkFuzzFacilitator', 'facilitator', h.clock.now);
  observer = await sessionCookie(h.store, 'did:key:z6MkFuzzObserver', 'observer', h.clock.now);
  await h.rooms.create({ id: 'ops', name: 'Operations', moderation: 'auto' });
  const fetchApp = (input: string, init?: RequestInit) => app.request(input, init);
  const identity = (key: string) =>
    new NegotiationParty(negotiationIdentity(1, key, key), fetchApp, '', () => h.clock.now, seededBytes(rng));
  buyer = identity('buyer');
  seller = identity('seller');
  stranger = identity('stranger');
  negotiationId = await buyer.open(seller.did, { category: 'pricing', mine: 'public', theirs: 'public' });
  // A started Agora thread (REQUEST, no OFFER yet) for the out-of-order cases.
  const opened = await app.request('/events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: json(envelope('REQUEST', client, { thread: 'thr_open' })),
  });
  expect(opened.status).toBe(200);
  digest = openTableDigest(join(dir, 'switchboard.sqlite'));
});

afterAll(async () => {
  const rows = [...casesRun.entries()].map(
    ([key, n]) =>
      `${String(n).padStart(5)}  ${key}  ${[...(statuses.get(key) ?? new Map<number, number>()).entries()]
        .sort()
        .map(([s, c]) => `${s}×${c}`)
        .join(' ')}`,
  );
  console.log(
    `HTTP fuzz (seed ${SEED}): ${[...casesRun.values()].reduce((a, b) => a + b, 0)} cases over ${casesRun.size} surfaces\n${rows.join('\n')}`,
  );
  digest?.close();
  presence?.stop();
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTP fuzz: every route of the app', () => {
  it('has a generator for every route in app.routes (a new endpoint cannot escape)', () => {
    const routes = new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`));
    const covered = new Set(Object.keys(surfaces()));
    expect(
      [...routes].filter((r) => !covered.has(r)),
      'routes without a fuzz generator',
    ).toEqual([]);
    expect(
      [...covered].filter((r) => !routes.has(r)),
      'generators for routes that no longer exist',
    ).toEqual([]);
    expect(routes.size).toBeGreaterThan(50);
  });

  it('answers every hostile request with a coded 4xx, never a 5xx, and writes nothing', async () => {
    // Every surface runs even after one fails, so one run lists every finding.
    const failures: string[] = [];
    for (const [key, surface] of Object.entries(surfaces())) {
      try {
        for (const r of surface.fixed ?? []) await check(key, surface, r);
        await fc.assert(
          fc.asyncProperty(surface.bad, async (r) => check(key, surface, r)),
          { seed: SEED, numRuns: surface.runs, endOnFailure: true },
        );
      } catch (error) {
        failures.push(
          `${key}: ${(error as Error).message.split('\n').find((l) => l.includes('→')) ?? (error as Error).message.slice(0, 400)}`,
        );
      }
    }
    expect(failures).toEqual([]);
    // The process is alive and still serves a good request.
    expect((await app.request('/health')).status).toBe(200);
  }, 600_000);
});
