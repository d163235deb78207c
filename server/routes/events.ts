// The Agora relay over HTTP (Agora v1.0 "Relay Protocol"): POST /events takes one signed
// envelope, GET /events long-polls. Errors are thrown and answered in Agora's shape `{ ok: false,
// code, message, details: { reason } }` by http/errors.ts (this is an `agoraErrors` family). Extensions (decisions-agora.md): the `cursor`
// in every answer (which `since` accepts), `limit`, and `hasMore`.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { z } from 'zod';
import { isRegistration } from '@shared/agora/directory-registration';
import type { AgoraError } from '@shared/agora/reject-reasons';
import { PollQuery, PostAnswer } from '@shared/contract/relay';
import { agoraError } from '@shared/agora/reject-reasons';
import { agoraErrors, AgoraRefusal, rateLimited } from '../http/error-family';
import { clientAddress, personKey, type ConcurrencyLimiter, type TokenBucketLimiter } from '../http/rate-limit';
import { sessionFromCookieHeader, type SessionDeps } from '../http/session';
import { reply } from '../http/reply';
import { readBodyText } from '../http/request-body';
import { MAX_ENVELOPE_BYTES } from '../relay/agora-relay';
import { formatCursor, parseSince } from '../relay/cursor';
import type { FeedFilter } from '../relay/event-feed';
import type { RelayServices } from '../relay/relay-services';
import type { StoredRelayEnvelope } from '../store/relay-store';

export const DEFAULT_POLL_TIMEOUT_S = 30;
export const MAX_POLL_TIMEOUT_S = 60;
export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 500;
/** Store re-reads one poll makes before it answers an empty page with the head cursor. */
export const MAX_REFETCHES = 16;

/** The relay's budgets (http/limits.ts); absent, the relay is unlimited (unit-level apps). */
export interface EventRouteLimits {
  readonly perAddress: TokenBucketLimiter;
  readonly perDid: TokenBucketLimiter;
  readonly longPolls: ConcurrencyLimiter;
  /** Directory registrations, on /agents and /events alike (decisions-agora.md §38). */
  readonly registrationsPerAddress: TokenBucketLimiter;
  readonly registrationsPerDid: TokenBucketLimiter;
}

/** A registration's own budgets, once its signature verified: per address, then per signer. */
export function takeRegistrationBudget(c: Context, limits: EventRouteLimits | undefined, signer: string): void {
  const byAddress = limits?.registrationsPerAddress.take(clientAddress(c));
  if (byAddress && !byAddress.ok)
    throw rateLimited(byAddress.retryAfterSeconds, 'directory registrations from this address');
  const byDid = limits?.registrationsPerDid.take(signer);
  if (byDid && !byDid.ok) throw rateLimited(byDid.retryAfterSeconds, 'directory registrations from this agent');
}

/** Takes one token for `key` from `limiter`, or throws 429 naming `what`. */
export function takeBudget(limiter: TokenBucketLimiter | undefined, key: string, what: string): void {
  const verdict = limiter?.take(key);
  if (verdict && !verdict.ok) throw rateLimited(verdict.retryAfterSeconds, what);
}

/** The wait a long-poll asks for, clamped to the spec's maximum ("default: 30, max: 60"). */
export const pollTimeoutMs = (requestedSeconds: number | undefined): number =>
  Math.min(requestedSeconds ?? DEFAULT_POLL_TIMEOUT_S, MAX_POLL_TIMEOUT_S) * 1000;

/** Throws an Agora failure for the error handler to answer (http/errors.ts); passes a success through. */
export function accepted<T>(
  result: { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AgoraError },
): T {
  if (!result.ok) throw new AgoraRefusal(result.error);
  return result.value;
}

const invalid = (message: string, extra: Record<string, unknown> = {}) =>
  new AgoraRefusal(agoraError('schema_invalid', message, extra));

// EventPage (shared/contract/relay.ts), written by hand rather than through reply: each envelope
// goes out as the exact text that was stored and signed, never re-serialised, so a reader can
// check its signature on what it receives. openapi.test.ts parses real pages with EventPage.
const pageBody = (events: readonly StoredRelayEnvelope[], hasMore: boolean, cursor: number): string =>
  `{"ok":true,"events":[${events.map((e) => e.json).join(',')}],"hasMore":${hasMore},"cursor":"${formatCursor(cursor)}"}`;

/**
 * `sessions`: where a poll's session cookie is read, so an operator's long-polls count against
 * that operator rather than the address they share with others (decisions-server.md §77).
 */
export function eventRoutes(services: RelayServices, limits?: EventRouteLimits, sessions?: SessionDeps) {
  const { relay, directory, feed } = services;
  return new Hono()
    .use('*', agoraErrors)
    .post(
      '/',
      // Per address before anything is read or verified: a flood of garbage costs one map lookup.
      (c, next) => {
        takeBudget(limits?.perAddress, clientAddress(c), 'envelopes from this address');
        return next();
      },
      async (c) => {
        const body = await readBodyText(c, MAX_ENVELOPE_BYTES);
        const verified = accepted(await relay.verify(body.text, body.bytes));
        // Per signer once the signature verified: a claimed sender cannot spend another's budget.
        takeBudget(limits?.perDid, verified.envelope.sender.id, 'envelopes from this sender');
        if (isRegistration(verified.envelope)) {
          takeRegistrationBudget(c, limits, verified.envelope.sender.id);
          const registered = accepted(await directory.registerVerified(verified));
          return reply(c, PostAnswer, { ok: true as const, id: registered.id, registered: registered.did }, 200);
        }
        const posted = await relay.accept(verified);
        if (!posted.ok) throw new AgoraRefusal(posted.error);
        return reply(
          c,
          PostAnswer,
          {
            ok: true as const,
            id: posted.id,
            cursor: formatCursor(posted.envelope.seq),
            ...(posted.duplicate ? { duplicate: true as const } : {}),
            ...(posted.thread ? { thread: { id: posted.thread.threadId, status: posted.thread.state.status } } : {}),
          },
          200,
        );
      },
    )
    .get('/', async (c) => {
      const raw = c.req.queries();
      const repeated = Object.entries(raw).find(([, values]) => values.length > 1);
      if (repeated) throw invalid(`Give ${repeated[0]} at most once.`, { parameter: repeated[0] });
      const parsed = PollQuery.safeParse(
        Object.fromEntries(Object.entries(raw).map(([key, values]) => [key, values[0]])),
      );
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw invalid(`Invalid query: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`.trim(), {
          issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        });
      }
      const q = parsed.data;
      const since = parseSince(q.since);
      if (!since)
        throw invalid(
          'since must be an ISO 8601 UTC timestamp (2026-02-02T15:30:00Z) or a cursor (cur_123) from an earlier answer.',
        );
      const filter: FeedFilter = {
        ...(q.recipient === undefined ? {} : { recipient: q.recipient }),
        ...(q.sender === undefined ? {} : { sender: q.sender }),
        ...(q.type === undefined ? {} : { type: q.type }),
        ...(q.thread === undefined ? {} : { threadId: q.thread }),
        ...(since.kind === 'timestamp' ? { afterTs: since.ms } : {}),
      };
      const deadline = Date.now() + pollTimeoutMs(q.timeout); // a wall-clock wait, not protocol time
      // Each waiting poll holds a socket, a timer and a feed entry: an operator, or an address
      // without a session, gets a fixed share.
      const session =
        limits && sessions
          ? await sessionFromCookieHeader(sessions.store, c.req.header('cookie'), sessions.clock.now())
          : undefined;
      const release = limits ? limits.longPolls.acquire(personKey(c, session?.did)) : () => undefined;
      if (!release)
        throw rateLimited(1, session ? 'long-polls open for this operator' : 'long-polls open from this address');
      try {
        return await poll(c, q, since, filter, deadline);
      } finally {
        release();
      }
    });

  async function poll(
    c: Context,
    q: z.infer<typeof PollQuery>,
    since: NonNullable<ReturnType<typeof parseSince>>,
    filter: FeedFilter,
    deadline: number,
  ): Promise<Response> {
    const limit = q.limit ?? DEFAULT_PAGE_LIMIT;
    let afterSeq = since.kind === 'cursor' ? since.seq : undefined;
    for (let refetches = 0; ; refetches++) {
      const page = await relay.store.listEvents({
        ...(afterSeq === undefined ? {} : { afterSeq }),
        ...(filter.afterTs === undefined ? {} : { afterTs: filter.afterTs }),
        liveAt: relay.now(),
        ...(filter.recipient === undefined ? {} : { recipient: filter.recipient }),
        ...(filter.sender === undefined ? {} : { sender: filter.sender }),
        ...(filter.type === undefined ? {} : { type: filter.type }),
        ...(filter.threadId === undefined ? {} : { threadId: filter.threadId }),
        limit,
      });
      // The store's head, read with the page, is the only head: a cursor beyond it (no instance
      // committed that seq) is clamped to it, never believed (decisions-agora.md §36).
      const head = page.headSeq;
      // "If events exist: Return immediately". Without more, the page covered the store up to
      // its head, so the head is a safe resume point even past events that did not match.
      if (page.events.length > 0) {
        const cursor = page.hasMore ? page.events[page.events.length - 1]!.seq : head;
        return c.body(pageBody(page.events, page.hasMore, cursor), 200, { 'content-type': 'application/json' });
      }
      const emptyPage = () => c.body(pageBody([], false, head), 200, { 'content-type': 'application/json' });
      if (refetches >= MAX_REFETCHES) return emptyPage();
      const outcome = await feed.wait(head, filter, limit, deadline - Date.now(), c.req.raw.signal);
      if (outcome.kind === 'events') {
        const last = outcome.events[outcome.events.length - 1]!;
        return c.body(pageBody(outcome.events, outcome.hasMore, last.seq), 200, { 'content-type': 'application/json' });
      }
      if (outcome.kind === 'timeout') return emptyPage();
      // Refetch: another writer moved the store. Read it again from here, after letting I/O run,
      // so no sequence of answers can hold the event loop.
      afterSeq = head;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
