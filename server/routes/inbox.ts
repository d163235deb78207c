// /api/inbox (decisions-server.md, "The inbox"): what waits for this operator, as one list, as a
// live stream (SSE: a snapshot, then upserts, removes and summaries), and soft claims. Observers
// read the same list; claiming is a facilitator's act. Streams are bounded per session and per
// operator, never per address (decisions-server.md §77: operators behind one proxy would share
// it), a stream ends as soon as its session does, and a client that does not read is dropped (it
// reconnects and gets a fresh snapshot) rather than buffered for without bound.
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ClaimBody, InboxClaim, InboxList, type InboxStreamEvent } from '@shared/contract/inbox';
import type { Clock } from '../clock';
import { rateLimited } from '../http/error-family';
import { reply } from '../http/reply';
import { jsonBody } from '../http/request-body';
import { ConcurrencyLimiter, personKey, rateLimit, TokenBucketLimiter } from '../http/rate-limit';
import { requireSession, sessionTokenFromCookieHeader } from '../http/session';
import { tokenHash } from '../auth/tokens';
import { visibleTo, type InboxService } from '../inbox/inbox-service';
import type { Store } from '../store/store';

export interface InboxStreamLimits {
  /** Streams one session may hold open at once (a few tabs). */
  readonly perSession: number;
  /** Streams one operator may hold open at once, over all their sessions (a few browsers). */
  readonly perOperator: number;
  /** Events waiting for one slow client before it is dropped. */
  readonly maxQueued: number;
  /**
   * A comment line this often keeps proxies from closing an idle stream and re-checks the session;
   * a write still under way after a whole period means the client stopped reading: it is dropped.
   */
  readonly heartbeatMs: number;
}

export const DEFAULT_INBOX_STREAM_LIMITS: InboxStreamLimits = {
  perSession: 4,
  perOperator: 16,
  maxQueued: 512,
  heartbeatMs: 15_000,
};

export interface InboxRouteDeps {
  readonly inbox: InboxService;
  readonly store: Store;
  readonly clock: Clock;
  readonly streams?: Partial<InboxStreamLimits>;
  /** Told when a session here ends or changes (logout, re-enrollment): each stream checks its own at once. */
  readonly sessionsChanged?: SessionSignal;
}

/** Subscribes to "a session may have ended"; answers the unsubscribe. */
export type SessionSignal = (listener: () => void) => () => void;

type Outgoing = { readonly kind: 'event'; readonly event: InboxStreamEvent } | { readonly kind: 'heartbeat' };

export function inboxRoutes(deps: InboxRouteDeps) {
  const { inbox, store, clock } = deps;
  const limits = { ...DEFAULT_INBOX_STREAM_LIMITS, ...deps.streams };
  const perSession = new ConcurrencyLimiter(limits.perSession);
  const perOperator = new ConcurrencyLimiter(limits.perOperator);
  // A renewal every few seconds per open item is plenty; this bounds a looping client.
  const claimsPerDid = new TokenBucketLimiter({ capacity: 60, refillPerSecond: 1, clock });
  const claimsPerAddress = new TokenBucketLimiter({ capacity: 240, refillPerSecond: 4, clock });
  const dismissalsPerDid = new TokenBucketLimiter({ capacity: 120, refillPerSecond: 1, clock });
  const session = { store, clock };

  return new Hono()
    .get('/', requireSession(session), async (c) => reply(c, InboxList, await inbox.list(c.get('session').did), 200))
    .get('/stream', requireSession(session), (c) => {
      const { did } = c.get('session');
      const token = sessionTokenFromCookieHeader(c.req.header('cookie'))!;
      const releaseOperator = perOperator.acquire(personKey(c, did));
      if (!releaseOperator) throw rateLimited(5, 'inbox streams for this operator');
      const releaseSession = perSession.acquire(tokenHash(token));
      if (!releaseSession) {
        releaseOperator();
        throw rateLimited(5, 'inbox streams for this session');
      }
      // Reverse proxies that buffer responses (nginx) would hold the events back.
      c.header('X-Accel-Buffering', 'no');
      return streamSSE(c, async (stream) => {
        const queue: Outgoing[] = [];
        let wake: (() => void) | undefined;
        let open = true;
        const end = () => {
          if (!open) return;
          open = false;
          wake?.();
        };
        /** Drops the client: its pending write is cancelled, and it reconnects for a fresh snapshot. */
        const drop = () => {
          end();
          stream.abort();
        };
        /** Writes finished so far, and whether one is under way: a write that outlasts a heartbeat is stalled. */
        let written = 0;
        let writing = false;
        let writtenAtLastBeat = -1;
        stream.onAbort(end);
        const push = (out: Outgoing) => {
          if (!open) return;
          if (queue.length >= limits.maxQueued) return drop();
          queue.push(out);
          wake?.();
        };
        // Subscribed and snapshotted in one turn: no change falls between the two.
        const off = inbox.subscribe((event) => {
          if (event.type === 'summary') push({ kind: 'event', event });
          else if (visibleTo(event.item, did))
            push({
              kind: 'event',
              event:
                event.type === 'upsert'
                  ? { type: 'upsert', version: event.version, item: event.item }
                  : { type: 'remove', version: event.version, id: event.id },
            });
        });
        push({ kind: 'event', event: { type: 'snapshot', list: inbox.snapshot(did) } });
        const heartbeat = setInterval(() => {
          // One write under way since the last beat: the client stopped reading (a big snapshot
          // it never takes would otherwise hold its place for ever).
          if (writing && written === writtenAtLastBeat) return drop();
          writtenAtLastBeat = written;
          void store.access.getSession(tokenHash(token), clock.now()).then(
            (live) => (live ? queue.length === 0 && push({ kind: 'heartbeat' }) : end()),
            () => undefined,
          );
        }, limits.heartbeatMs);
        heartbeat.unref();
        // A logout here ends the stream at once, as it closes /mqtt; the heartbeat's check is the
        // backstop for a session ended elsewhere (another instance, the CLI).
        const unwatch = deps.sessionsChanged?.(() => {
          void store.access.getSession(tokenHash(token), clock.now()).then(
            (live) => live || end(),
            () => undefined,
          );
        });
        try {
          while (open) {
            const next = queue.shift();
            if (!next) {
              await new Promise<void>((resolve) => (wake = resolve));
              wake = undefined;
              continue;
            }
            writing = true;
            if (next.kind === 'heartbeat') await stream.write(': heartbeat\n\n');
            else await stream.writeSSE({ event: next.event.type, data: JSON.stringify(next.event) });
            writing = false;
            written++;
          }
        } finally {
          off();
          unwatch?.();
          clearInterval(heartbeat);
          releaseSession();
          releaseOperator();
        }
      });
    })
    .post(
      '/claims',
      rateLimit(claimsPerAddress),
      requireSession(session, 'facilitator'),
      jsonBody(ClaimBody),
      async (c) => {
        const { did } = c.get('session');
        const verdict = claimsPerDid.take(did);
        if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds, 'claims');
        const { itemId } = c.req.valid('json');
        // An item that left (decided a moment ago) is nothing to claim; the claim races the decision
        // by nature, so that is an answer, not an error (decisions-server.md §68).
        if (!inbox.item(itemId, did)) return c.body(null, 204);
        return reply(c, InboxClaim, await inbox.claim(itemId, did), 200);
      },
    )
    .post(
      '/dismissals',
      rateLimit(claimsPerAddress),
      requireSession(session, 'facilitator'),
      jsonBody(ClaimBody),
      async (c) => {
        const { did } = c.get('session');
        // Each dismissal is a stored row and an audit entry: bounded per facilitator (§75).
        const verdict = dismissalsPerDid.take(did);
        if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds, 'dismissals');
        // Gone meanwhile (decided, or dismissed by another): there is nothing left to dismiss (§68).
        await inbox.dismiss(c.req.valid('json').itemId, did);
        return c.body(null, 204);
      },
    );
}
