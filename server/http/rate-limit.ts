// A token bucket per key (client address, or operator once a session is known): `capacity` requests at once, refilled continuously at
// `refillPerSecond`. In memory, so per process: enough to slow a guessing loop against one
// instance; several instances behind a load balancer each allow their own share.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Clock } from '../clock';
import { resolveClientAddress, type TrustedProxies } from './client-address';
import { rateLimited } from './error-family';

declare module 'hono' {
  interface ContextVariableMap {
    /** The client's address, through trusted proxies (clientAddresses, decisions-server.md §77). */
    clientAddress: string;
  }
}

export interface TokenBucketOptions {
  readonly capacity: number;
  readonly refillPerSecond: number;
  readonly clock: Clock;
  /** Keys remembered at most; the least recently seen is forgotten first (a fresh, full bucket). */
  readonly maxKeys?: number;
}

export type TakeResult = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBucketLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #maxKeys: number;

  constructor(private readonly options: TokenBucketOptions) {
    if (!(options.capacity >= 1) || !(options.refillPerSecond > 0))
      throw new RangeError('capacity must be ≥ 1 and refillPerSecond > 0');
    this.#maxKeys = options.maxKeys ?? 10_000;
  }

  take(key: string): TakeResult {
    const now = this.options.clock.now();
    const previous = this.#buckets.get(key);
    const bucket: Bucket = previous
      ? {
          tokens: Math.min(
            this.options.capacity,
            previous.tokens + ((now - previous.at) / 1000) * this.options.refillPerSecond,
          ),
          at: now,
        }
      : { tokens: this.options.capacity, at: now };
    this.#buckets.delete(key); // re-inserted last: Map order is least recently seen first
    if (this.#buckets.size >= this.#maxKeys) this.#buckets.delete(this.#buckets.keys().next().value as string);
    const ok = bucket.tokens >= 1;
    if (ok) bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    return ok ? { ok } : { ok, retryAfterSeconds: Math.ceil((1 - bucket.tokens) / this.options.refillPerSecond) };
  }
}

/** The peer address of the TCP connection; 'unknown' where there is none (app.request in tests). */
function peerAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Resolves each request's client address once, through the trusted proxies (TRUST_PROXY). */
export function clientAddresses(trusted: TrustedProxies) {
  return createMiddleware(async (c, next) => {
    c.set('clientAddress', resolveClientAddress(peerAddress(c), c.req.header('x-forwarded-for'), trusted));
    await next();
  });
}

/** The client's address (clientAddresses), else the TCP peer's. */
export function clientAddress(c: Context): string {
  return (c.get('clientAddress') as string | undefined) ?? peerAddress(c);
}

/**
 * The key of a limit on a person (decisions-server.md §77): the operator when the request carries
 * a live session, the client address only when it does not, so operators behind one proxy or NAT
 * do not share one budget and one of them cannot use up the others'.
 */
export function personKey(c: Context, operatorDid: string | undefined): string {
  return operatorDid === undefined ? `address ${clientAddress(c)}` : `operator ${operatorDid}`;
}

export function rateLimit(limiter: TokenBucketLimiter, key: (c: Context) => string = clientAddress) {
  return createMiddleware(async (c, next) => {
    const verdict = limiter.take(key(c));
    if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds);
    return next();
  });
}

/**
 * At most `max` things at once per key (long-polls per client address). `acquire` answers the
 * release function, or undefined when the key is at its cap; releasing twice is harmless.
 */
export class ConcurrencyLimiter {
  readonly #held = new Map<string, number>();

  constructor(private readonly max: number) {
    if (!(max >= 1)) throw new RangeError('max must be ≥ 1');
  }

  held(key: string): number {
    return this.#held.get(key) ?? 0;
  }

  acquire(key: string): (() => void) | undefined {
    const held = this.held(key);
    if (held >= this.max) return undefined;
    this.#held.set(key, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = this.held(key) - 1;
      if (now <= 0) this.#held.delete(key);
      else this.#held.set(key, now);
    };
  }
}
