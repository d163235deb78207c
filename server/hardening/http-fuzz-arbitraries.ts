// The HTTP fuzz's kinds of hostile request (http-fuzz.test.ts): fast-check arbitraries for bad
// bodies, tampered signatures, bad path and query input and bad sessions, and the surface builders
// that combine them for one kind of route. Everything is generated from the test's fixed seed.
import fc from 'fast-check';
import { draft, party } from '@shared/agora/test-support/fixtures';
import type { MessageType, UnsignedEnvelope } from '@shared/agora/envelope';
import { signEnvelope } from '@shared/agora/sign-envelope';
import { MAX_NEGOTIATION_BODY_BYTES } from '../routes/negotiation';
import { MAX_ENVELOPE_BYTES } from '../relay/agora-relay';
import { hostileBody, oversizeBody, type HostileBody } from './hostile-bodies';

/**
 * fast-check runs per surface; each surface also runs its fixed cases (oversize body, …). The test
 * run takes 60 and 24; `HTTP_FUZZ_SCALE=2.5` is the deeper run whose table docs/security.md keeps.
 */
const SCALE = Math.max(1, Number(process.env.HTTP_FUZZ_SCALE ?? 1) || 1);
export const RUNS = { body: Math.round(60 * SCALE), read: Math.round(24 * SCALE) } as const;

export interface BadRequest {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Uint8Array;
}

export interface Surface {
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

/** What the generators need from the running test: its sessions, clock and negotiation. */
export interface FuzzContext {
  readonly origin: string;
  /** Session cookies. */
  readonly facilitator: string;
  readonly observer: string;
  readonly negotiationId: string;
  readonly envelopes: FuzzEnvelopes;
}

export const client = party(1);
export const agentA = party(2);
export const strangerKey = party(4);

export const json = (body: unknown) => JSON.stringify(body);
const enc = encodeURIComponent;

/** Signed Agora envelopes, timestamped `now()` (the relay's window), each with an id of its own. */
export function fuzzEnvelopes(now: () => number) {
  let unique = 0;
  return {
    /** How many envelopes were made so far. */
    count: () => unique,
    /** One envelope of `type` from `from` (the client by default) to `agentA` unless `to`. */
    envelope: (
      type: MessageType,
      from = client,
      overrides: { thread?: string; to?: typeof client; payload?: Record<string, unknown> } = {},
    ) => {
      unique++;
      const unsigned = draft(type, {
        from,
        ...(overrides.to ? { to: overrides.to } : { to: agentA }),
        id: `msg_fuzz_${unique}`,
        ts: now(),
        thread: overrides.thread ?? `thr_fuzz_${unique}`,
        ...(overrides.payload ? { payload: overrides.payload } : {}),
        meta: { ttl: 3600, hop: 0 },
      });
      return signEnvelope(unsigned as UnsignedEnvelope, from.secretKey);
    },
  };
}

export type FuzzEnvelopes = ReturnType<typeof fuzzEnvelopes>;

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
export const cookieVariants = () =>
  fc.constantFrom<Record<string, string>>(
    {},
    { cookie: 'sb_session=forged' },
    { cookie: 'sb_session=' + 'A'.repeat(43) },
    { cookie: 'other=1' },
  );

/** A public GET taking no input: junk query strings and headers are ignored. */
export const inputless = (path: string, mayWrite?: readonly string[]): Surface => ({
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
export const publicRead = (paths: fc.Arbitrary<string>): Surface => ({
  bad: paths.map((path) => ({ label: 'bad-params', method: 'GET', path })),
  runs: RUNS.read,
});

export const junkSegment = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 60 }),
    fc.constantFrom('a..b', '%00', '%ff', 'a'.repeat(2000), '-1', '1e309', 'null', '__proto__', 'constructor'),
  )
  .map((s) => (s.startsWith('%') ? s : enc(s)));
export const badIndex = fc.oneof(
  fc.constantFrom('-1', '01', '1.5', 'x', '9'.repeat(20), '%ff'),
  fc.integer({ min: 1_000, max: 1e9 }).map(String),
);
export const badQueryValue = fc.oneof(
  fc.constantFrom('-1', '0', 'abc', '1e400', '%ff', '', 'NaN', '999999999'),
  fc.string({ maxLength: 20 }).map(enc),
);

/** The surface builders that need the test's sessions, envelopes or negotiation. */
export function surfaceKinds(ctx: FuzzContext) {
  const { origin, facilitator, observer, negotiationId } = ctx;
  const { envelope } = ctx.envelopes;

  /** A POST/PATCH with a body: hostile bodies under a good session, and any body under a bad one. */
  function bodyRoute(
    method: string,
    path: () => string,
    template: Record<string, unknown>,
    auth: 'facilitator' | 'operator' | 'none' | 'signed',
    limit: number,
  ): Surface {
    const session: Record<string, string> =
      auth === 'facilitator' || auth === 'operator' ? { cookie: facilitator, origin } : {};
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
      // 'operator': any signed-in operator may (observers too), so only a missing session is refused.
      bad:
        auth === 'facilitator'
          ? fc.oneof(hostile, badSession, observerSession)
          : auth === 'operator'
            ? fc.oneof(hostile, badSession)
            : hostile,
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
    const noSession = cookieVariants().map((headers) => ({
      label: 'no-session',
      method: 'GET',
      path: path(),
      headers,
    }));
    const badParams = params?.map((p) => ({
      label: 'bad-params',
      method: 'GET',
      path: p,
      headers: { cookie: observer },
    }));
    return { bad: badParams ? fc.oneof(noSession, badParams) : noSession, runs: RUNS.read };
  }

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

  return { bodyRoute, sessionRead, signedRelayPost, negotiationPost, sessionRoute };
}
