// One POST of one delivery: signed at the moment it is sent, bounded in time, never following a
// redirect, and sent only to public addresses (the SSRF policy of decisions-server.md §41, checked
// at connect time against DNS rebinding) unless ALLOW_PRIVATE_WEBHOOK_URLS=1 or the endpoint came
// from the administrator's WEBHOOKS. The receiver's answer is only its status; its body is dropped.
import type { lookup } from 'node:dns/promises';
import type { Agent, fetch as undiciFetch } from 'undici';
import { CodedError } from '@shared/errors';
import { AddressRefusedError, publicAddresses } from '../external/address-policy';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signWebhook } from './signature';

export interface WebhookSenderOptions {
  /** Any address is allowed (ALLOW_PRIVATE_WEBHOOK_URLS=1: local setups, tests). */
  readonly allowPrivate?: boolean;
  /** Connect, headers and body together (WEBHOOK_TIMEOUT_MS). */
  readonly timeoutMs?: number;
  /** The resolver behind the address check (tests answer names of their own). */
  readonly lookup?: typeof lookup;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

export interface Outgoing {
  readonly id: string;
  readonly eventType: string;
  readonly url: string;
  readonly secret: string;
  readonly payload: Uint8Array;
  /** Endpoints from WEBHOOKS are the administrator's own: their address is not checked. */
  readonly trusted: boolean;
}

/** `ok`: the receiver answered 2xx. Otherwise what went wrong, in words, for the delivery log. */
export interface SendResult {
  readonly ok: boolean;
  readonly status: number | null;
  readonly error: string | null;
}

interface Pools {
  readonly fetch: typeof undiciFetch;
  readonly open: Agent;
  readonly guarded: Agent;
}

export class WebhookSender {
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  readonly #lookup: typeof lookup | undefined;
  #pools: Promise<Pools> | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: WebhookSenderOptions = {}) {
    this.allowPrivate = options.allowPrivate ?? false;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.#lookup = options.lookup;
  }

  /** undici and its pools, loaded at the first send (as service-fetcher.ts does). */
  #loadPools(): Promise<Pools> {
    if (this.#closed) return Promise.reject(new Error('this webhook sender is closed'));
    this.#pools ??= Promise.all([import('undici'), import('../external/guarded-connector')]).then(
      ([undici, { guardedConnector }]) => ({
        fetch: undici.fetch,
        open: new undici.Agent(),
        guarded: new undici.Agent({ connect: guardedConnector(this.#lookup) }),
      }),
    );
    return this.#pools;
  }

  /**
   * Whether a facilitator may register `url`: its host must be, or resolve now to, public
   * addresses only. A name that does not resolve yet is admitted: every send checks again.
   */
  async admit(url: string): Promise<void> {
    if (this.allowPrivate) return;
    try {
      await publicAddresses(new URL(url).hostname, this.#lookup);
    } catch (error) {
      if (error instanceof AddressRefusedError)
        throw new CodedError(
          'INVALID_REQUEST',
          `The URL must reach a public address: ${error.message}. An administrator may list it in WEBHOOKS or set ALLOW_PRIVATE_WEBHOOK_URLS=1.`,
          { reason: 'url_not_public' },
        );
    }
  }

  async send(delivery: Outgoing, nowSeconds: number, signal?: AbortSignal): Promise<SendResult> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const pools = await this.#loadPools();
      const res = await pools.fetch(delivery.url, {
        method: 'POST',
        redirect: 'manual',
        signal: both,
        dispatcher: this.allowPrivate || delivery.trusted ? pools.open : pools.guarded,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Switchboard-Webhooks/1',
          [SIGNATURE_HEADER]: signWebhook(delivery.secret, nowSeconds, delivery.id, delivery.payload),
          [EVENT_HEADER]: delivery.eventType,
          [DELIVERY_HEADER]: delivery.id,
        },
        body: delivery.payload,
      });
      await res.body?.cancel().catch(() => undefined);
      if (res.status >= 200 && res.status <= 299) return { ok: true, status: res.status, error: null };
      if (res.status >= 300 && res.status <= 399)
        return { ok: false, status: res.status, error: `answered a redirect (${res.status}), which is not followed` };
      return { ok: false, status: res.status, error: `answered ${res.status}` };
    } catch (error) {
      if (signal?.aborted) return { ok: false, status: null, error: 'the server stopped during the send' };
      if (timeout.aborted) return { ok: false, status: null, error: `no answer within ${this.timeoutMs} ms` };
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof AddressRefusedError) return { ok: false, status: null, error: `refused: ${cause.message}` };
      return { ok: false, status: null, error: `cannot be reached (${describeCause(error)})` };
    }
  }

  close(): Promise<void> {
    this.#closed ??= this.#pools
      ? this.#pools.then((p) => Promise.all([p.guarded.close(), p.open.close()])).then(() => undefined)
      : Promise.resolve();
    return this.#closed;
  }
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return (cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))).slice(0, 200);
}
