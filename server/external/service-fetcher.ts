// Every request the server makes to an external relay or negotiation service goes through here
// (the proxy, the bridge's long-polls and probes, the negotiation views), and so does the fetch of
// an A2A Agent Card a facilitator imports (routes/directory-imports.ts): bounded in time and in
// bytes, never following a redirect, sent only to public addresses unless the service came from
// the administrator's EXTERNAL_SERVICES or ALLOW_PRIVATE_SERVICE_URLS=1, and read as strict JSON
// of bounded depth. What comes back is a value, never the service's bytes or headers
// (decisions-server.md §40, §41).
import type { lookup } from 'node:dns/promises';
import type { Agent, fetch as undiciFetch, Response } from 'undici';
import { CodedError } from '@shared/errors';
import { MAX_JSON_DEPTH, parseJsonText } from '../http/json-text';
import { readCapped } from '../http/read-capped';
import type { ExternalService } from '../store/service-registry-store';
import { AddressRefusedError, publicAddresses } from './address-policy';

export interface ServiceFetcherOptions {
  /** ALLOW_PRIVATE_SERVICE_URLS: any address is allowed (local setups, tests). */
  readonly allowPrivate?: boolean;
  /** Connect, headers and body together; a request of its own may ask for longer (a long-poll). */
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** The resolver behind the address check (tests answer names of their own). */
  readonly lookup?: typeof lookup;
}

export const DEFAULT_SERVICE_TIMEOUT_MS = 15_000;
/** A relay page: 100 envelopes of at most 64 KiB each, with room to spare. */
export const DEFAULT_MAX_SERVICE_RESPONSE_BYTES = 8 * 1024 * 1024;
/** A page or a negotiation wraps documents the request-side bound admitted in a few levels more. */
export const MAX_SERVICE_JSON_DEPTH = MAX_JSON_DEPTH + 8;

export type ServiceTarget = Pick<ExternalService, 'id' | 'name' | 'baseUrl' | 'origin'>;

export interface ServiceRequest {
  readonly method?: string;
  readonly body?: ArrayBuffer | Uint8Array<ArrayBuffer>;
  readonly contentType?: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** false: only the status matters (a probe); the body is dropped unread. */
  readonly readBody?: boolean;
  /** Below the fetcher's own cap where the answer is small (an Agent Card). */
  readonly maxBytes?: number;
}

/** The service's status and its answer as a JSON value (undefined: it sent no body). */
export interface ServiceAnswer {
  readonly status: number;
  readonly body: unknown;
}

const NO_BODY = new Set([204, 205, 304]);

interface Pools {
  readonly fetch: typeof undiciFetch;
  readonly open: Agent;
  readonly guarded: Agent;
}

export class ServiceFetcher {
  readonly allowPrivate: boolean;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #lookup: typeof lookup | undefined;
  #pools: Promise<Pools> | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: ServiceFetcherOptions = {}) {
    this.allowPrivate = options.allowPrivate ?? false;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_SERVICE_TIMEOUT_MS;
    this.#maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_SERVICE_RESPONSE_BYTES;
    this.#lookup = options.lookup;
  }

  /** undici and its pools, loaded at the first request: a console that calls no service never holds them. */
  #loadPools(): Promise<Pools> {
    if (this.#closed) return Promise.reject(new Error('this service fetcher is closed'));
    this.#pools ??= Promise.all([import('undici'), import('./guarded-connector')]).then(
      ([undici, { guardedConnector }]) => ({
        fetch: undici.fetch,
        open: new undici.Agent(),
        guarded: new undici.Agent({ connect: guardedConnector(this.#lookup) }),
      }),
    );
    return this.#pools;
  }

  /**
   * Whether a facilitator may register `baseUrl` (an http(s) URL already normalised): its host
   * must be, or resolve now to, public addresses only. A name that does not resolve yet is
   * admitted: every connection checks again (guarded-connector.ts).
   */
  async admit(baseUrl: string): Promise<void> {
    if (this.allowPrivate) return;
    try {
      await publicAddresses(new URL(baseUrl).hostname, this.#lookup);
    } catch (error) {
      if (error instanceof AddressRefusedError) {
        throw new CodedError(
          'INVALID_REQUEST',
          `The URL must reach a public address: ${error.message}. An administrator may list it in EXTERNAL_SERVICES or set ALLOW_PRIVATE_SERVICE_URLS=1.`,
          { reason: 'url_not_public' },
        );
      }
    }
  }

  /**
   * One request; throws CodedError SERVICE_UNAVAILABLE (no answer: refused, unreachable, no
   * headers in time) or SERVICE_BAD_ANSWER (a redirect, too large, too slow, not JSON, too deep).
   */
  async request(service: ServiceTarget, path: string, init: ServiceRequest = {}): Promise<ServiceAnswer> {
    const caller = init.signal;
    if (!caller) return this.#request(service, path, init);
    // A poller passes the signal it keeps for its whole life; a signal of this request's own,
    // unlinked when it ends, keeps the poller's from gathering a listener per request.
    const own = new AbortController();
    const forward = () => own.abort(caller.reason);
    if (caller.aborted) forward();
    else caller.addEventListener('abort', forward, { once: true });
    try {
      return await this.#request(service, path, { ...init, signal: own.signal });
    } finally {
      caller.removeEventListener('abort', forward);
    }
  }

  async #request(service: ServiceTarget, path: string, init: ServiceRequest): Promise<ServiceAnswer> {
    const timeout = AbortSignal.timeout(init.timeoutMs ?? this.#timeoutMs);
    const maxBytes = Math.min(init.maxBytes ?? this.#maxBytes, this.#maxBytes);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const trusted = this.allowPrivate || service.origin === 'env';
    const unavailable = (reason: string, why: string) =>
      new CodedError(
        'SERVICE_UNAVAILABLE',
        `${service.name} cannot be reached (${why}); nothing was sent. Try again once it is back.`,
        { reason, service: service.id },
      );
    const bad = (reason: string, why: string, status?: number) =>
      new CodedError('SERVICE_BAD_ANSWER', `${service.name} answered ${why}; its answer is not passed on.`, {
        reason,
        service: service.id,
        ...(status === undefined ? {} : { status }),
      });
    let res: Response;
    try {
      const pools = await this.#loadPools();
      res = await pools.fetch(`${service.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        redirect: 'manual',
        signal,
        dispatcher: trusted ? pools.open : pools.guarded,
        headers: {
          accept: 'application/json',
          ...(init.body ? { 'content-type': init.contentType ?? 'application/json' } : {}),
        },
        ...(init.body ? { body: init.body } : {}),
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      if (timeout.aborted) throw unavailable('timeout', 'no answer in time');
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof AddressRefusedError) throw unavailable('url_not_public', cause.message);
      throw unavailable('service_unavailable', describeCause(error));
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      throw bad('redirect', `a redirect (${res.status}), which is not followed`, res.status);
    }
    if (init.readBody === false) {
      await res.body?.cancel().catch(() => undefined);
      return { status: res.status, body: undefined };
    }
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw bad('too_large', `more than ${maxBytes} bytes`, res.status);
    }
    let bytes: Uint8Array;
    try {
      const read = await readCapped(res.body, maxBytes);
      if (read === undefined) throw bad('too_large', `more than ${maxBytes} bytes`, res.status);
      bytes = read;
    } catch (error) {
      if (error instanceof CodedError) throw error;
      if (init.signal?.aborted) throw error;
      if (timeout.aborted) throw bad('timeout', 'a body that did not end in time', res.status);
      throw unavailable('service_unavailable', describeCause(error));
    }
    if (bytes.byteLength === 0 && NO_BODY.has(res.status)) return { status: res.status, body: undefined };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw bad('not_json', 'bytes that are not UTF-8 text', res.status);
    }
    try {
      return { status: res.status, body: parseJsonText(text, MAX_SERVICE_JSON_DEPTH) };
    } catch (error) {
      const deep = error instanceof CodedError && error.code === 'JSON_TOO_DEEP';
      throw deep
        ? bad('too_deep', `JSON nested deeper than ${MAX_SERVICE_JSON_DEPTH}`, res.status)
        : bad('not_json', 'something that is not JSON', res.status);
    }
  }

  /** Closes the connection pools once; a bridge stopped twice (or two sharing this fetcher) closes nothing twice. */
  close(): Promise<void> {
    this.#closed ??= this.#closePools();
    return this.#closed;
  }

  async #closePools(): Promise<void> {
    const pools = await this.#pools;
    if (pools) await Promise.all([pools.guarded.close(), pools.open.close()]);
  }
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
