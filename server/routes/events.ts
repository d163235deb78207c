// The Agora relay over HTTP (Agora v1.0 "Relay Protocol"): POST /events takes one signed
// envelope, GET /events long-polls. Errors are Agora's: `{ ok: false, code, message, details:
// { reason } }`, the status from http/errors.ts. Extensions (decisions-agora.md): the `cursor`
// in every answer (which `since` accepts), `limit`, and `hasMore`.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import { isRegistration } from '@shared/agora/directory-registration';
import { MESSAGE_TYPES } from '@shared/agora/envelope';
import type { AgoraError } from '@shared/agora/reject-reasons';
import { agoraError } from '@shared/agora/reject-reasons';
import { statusForAgoraError } from '../http/errors';
import { readCapped } from '../http/read-capped';
import { clientAddress, tooManyRequests, type ConcurrencyLimiter, type TokenBucketLimiter } from '../http/rate-limit';
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
function registrationBudget(c: Context, limits: EventRouteLimits | undefined, signer: string): Response | undefined {
  const byAddress = limits?.registrationsPerAddress.take(clientAddress(c));
  if (byAddress && !byAddress.ok) return tooManyRequests(c, byAddress.retryAfterSeconds, 'directory registrations from this address', 'agora');
  const byDid = limits?.registrationsPerDid.take(signer);
  if (byDid && !byDid.ok) return tooManyRequests(c, byDid.retryAfterSeconds, 'directory registrations from this agent', 'agora');
  return undefined;
}

/** The wait a long-poll asks for, clamped to the spec's maximum ("default: 30, max: 60"). */
export const pollTimeoutMs = (requestedSeconds: number | undefined): number =>
  Math.min(requestedSeconds ?? DEFAULT_POLL_TIMEOUT_S, MAX_POLL_TIMEOUT_S) * 1000;

export const agoraErrorResponse = (c: Context, error: AgoraError) =>
  c.json({ ok: false as const, code: error.code, message: error.message, details: error.details }, statusForAgoraError(error));

const invalid = (c: Context, message: string, extra: Record<string, unknown> = {}) => agoraErrorResponse(c, agoraError('schema_invalid', message, extra));

/** Reads a request body up to the limit and one byte past it, never the whole of a huge body. */
export async function readLimitedBody(c: Context): Promise<{ text: string; bytes: number } | { error: AgoraError }> {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > MAX_ENVELOPE_BYTES) {
    return { error: agoraError('payload_too_large', `An envelope may be at most ${MAX_ENVELOPE_BYTES} bytes.`, { limit: MAX_ENVELOPE_BYTES, size: declared }) };
  }
  // A declared length frames the body (the HTTP parser ends it there), so one within the limit is
  // read whole and directly, without the web stream an undeclared (chunked) body is read through.
  const body = Number.isFinite(declared) ? Buffer.from(await c.req.arrayBuffer()) : await readCapped(c.req.raw.body, MAX_ENVELOPE_BYTES);
  if (!body) return { error: agoraError('payload_too_large', `An envelope may be at most ${MAX_ENVELOPE_BYTES} bytes.`, { limit: MAX_ENVELOPE_BYTES }) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), bytes: body.byteLength };
  } catch {
    return { error: agoraError('not_json', 'The body is not UTF-8 text.') };
  }
}

const Did = z.string().min(1).max(512);
const PollQuery = z.object({
  since: z.string().min(1).max(64),
  recipient: Did.optional(),
  sender: Did.optional(),
  type: z.enum(MESSAGE_TYPES).optional(),
  thread: z.string().min(1).max(256).optional(),
  // Spec: "default: 30, max: 60"; above 60 is read as 60, so a client asking for more still waits.
  timeout: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).optional(),
});

const pageBody = (events: readonly StoredRelayEnvelope[], hasMore: boolean, cursor: number): string =>
  `{"ok":true,"events":[${events.map((e) => e.json).join(',')}],"hasMore":${hasMore},"cursor":"${formatCursor(cursor)}"}`;

export function eventRoutes(services: RelayServices, limits?: EventRouteLimits) {
  const { relay, directory, feed } = services;
  return new Hono()
    .post('/', async (c) => {
      // Per address before anything is read or verified: a flood of garbage costs one map lookup.
      const byAddress = limits?.perAddress.take(clientAddress(c));
      if (byAddress && !byAddress.ok) return tooManyRequests(c, byAddress.retryAfterSeconds, 'envelopes from this address', 'agora');
      const body = await readLimitedBody(c);
      if ('error' in body) return agoraErrorResponse(c, body.error);
      const verified = await relay.verify(body.text, body.bytes);
      if (!verified.ok) return agoraErrorResponse(c, verified.error);
      // Per signer once the signature verified: a claimed sender cannot spend another's budget.
      const byDid = limits?.perDid.take(verified.value.envelope.sender.id);
      if (byDid && !byDid.ok) return tooManyRequests(c, byDid.retryAfterSeconds, 'envelopes from this sender', 'agora');
      if (isRegistration(verified.value.envelope)) {
        const refused = registrationBudget(c, limits, verified.value.envelope.sender.id);
        if (refused) return refused;
        const registered = await directory.registerVerified(verified.value);
        if (!registered.ok) return agoraErrorResponse(c, registered.error);
        return c.json({ ok: true as const, id: registered.value.id, registered: registered.value.did }, 200);
      }
      const posted = await relay.accept(verified.value);
      if (!posted.ok) return agoraErrorResponse(c, posted.error);
      return c.json(
        {
          ok: true as const,
          id: posted.id,
          cursor: formatCursor(posted.envelope.seq),
          ...(posted.duplicate ? { duplicate: true } : {}),
          ...(posted.thread ? { thread: { id: posted.thread.threadId, status: posted.thread.state.status } } : {}),
        },
        200,
      );
    })
    .get('/', async (c) => {
      const raw = c.req.queries();
      const repeated = Object.entries(raw).find(([, values]) => values.length > 1);
      if (repeated) return invalid(c, `Give ${repeated[0]} at most once.`, { parameter: repeated[0] });
      const parsed = PollQuery.safeParse(Object.fromEntries(Object.entries(raw).map(([key, values]) => [key, values[0]])));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return invalid(c, `Invalid query: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`.trim(), {
          issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        });
      }
      const q = parsed.data;
      const since = parseSince(q.since);
      if (!since) return invalid(c, 'since must be an ISO 8601 UTC timestamp (2026-02-02T15:30:00Z) or a cursor (cur_123) from an earlier answer.');
      const filter: FeedFilter = {
        ...(q.recipient === undefined ? {} : { recipient: q.recipient }),
        ...(q.sender === undefined ? {} : { sender: q.sender }),
        ...(q.type === undefined ? {} : { type: q.type }),
        ...(q.thread === undefined ? {} : { threadId: q.thread }),
        ...(since.kind === 'timestamp' ? { afterTs: since.ms } : {}),
      };
      const deadline = Date.now() + pollTimeoutMs(q.timeout); // a wall-clock wait, not protocol time
      // Each waiting poll holds a socket, a timer and a feed entry: an address gets a fixed share.
      const release = limits ? limits.longPolls.acquire(clientAddress(c)) : () => undefined;
      if (!release) return tooManyRequests(c, 1, 'long-polls open from this address', 'agora');
      try {
        return await poll(c, q, since, filter, deadline);
      } finally {
        release();
      }
    });

  async function poll(c: Context, q: z.infer<typeof PollQuery>, since: NonNullable<ReturnType<typeof parseSince>>, filter: FeedFilter, deadline: number): Promise<Response> {
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
