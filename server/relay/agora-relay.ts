// The Agora relay's ingest: one signed envelope in, stored once or refused
// with a coded reason that stores nothing. Pipeline (Agora v1.0, decisions-agora.md §2, §18):
// size (on the wire, before parsing) → JSON → checkIncoming (version, schema, signature by
// node:crypto, ±5 min, replay, meta.ttl) → the thread machine, inside the store's transaction.
import { createHash } from 'node:crypto';
import { checkIncoming } from '@shared/agora/check-incoming';
import type { AcceptedEnvelope } from '@shared/agora/check-incoming';
import { isRegistration } from '@shared/agora/directory-registration';
import type { Envelope } from '@shared/agora/envelope';
import { timestampMs } from '@shared/agora/fields';
import { agoraError } from '@shared/agora/reject-reasons';
import type { AgoraError, AgoraErrorCode, AgoraReason } from '@shared/agora/reject-reasons';
import { DEFAULT_THREAD_TIMEOUTS, openThread, threadDeadline, tick } from '@shared/agora/thread-state';
import type { ThreadTimeouts } from '@shared/agora/thread-state';
import { transition } from '@shared/agora/thread-transition';
import { isOacopCarrier, readCarrier } from '@shared/oacop/carrier';
import { parseStrictJson } from '@shared/aor/strict-json';
import { ok } from '@shared/errors';
import type { Result } from '@shared/errors';
import type { Clock } from '../clock';
import { DidVerifier } from '../crypto/node-verifier';
import type {
  NewRelayEnvelope,
  RelayStore,
  StoredRelayEnvelope,
  ThreadDecision,
  ThreadRecord,
} from '../store/relay-store';
import type { EventFeed } from './event-feed';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('relay');

/** Agora "a size limit (64 KiB)" (decisions-agora.md §18), on the request body as sent. */
export const MAX_ENVELOPE_BYTES = 64 * 1024;

/** What the relay's outcome listeners hear (labels from bounded sets: AGORA_ERROR_CODES, AgoraReason). */
export type RelayOutcome =
  | { readonly ok: true; readonly duplicate: boolean }
  | { readonly ok: false; readonly code: AgoraErrorCode; readonly reason: AgoraReason };

export type PostOutcome =
  | {
      readonly ok: true;
      readonly id: string;
      readonly duplicate: boolean;
      readonly envelope: StoredRelayEnvelope;
      readonly thread?: ThreadRecord;
    }
  | { readonly ok: false; readonly error: AgoraError };

export type Verified = AcceptedEnvelope & { readonly json: string };

export interface AgoraRelayOptions {
  readonly store: RelayStore;
  readonly clock: Clock;
  readonly feed: EventFeed;
  readonly verifier?: DidVerifier;
  readonly timeouts?: ThreadTimeouts;
}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

export class AgoraRelay {
  readonly store: RelayStore;
  readonly feed: EventFeed;
  readonly timeouts: ThreadTimeouts;
  readonly #clock: Clock;
  readonly #verifier: DidVerifier;
  readonly #check: (did: string, message: Uint8Array, signature: Uint8Array) => boolean;
  readonly #outcomes = new Set<(outcome: RelayOutcome) => void>();

  constructor(options: AgoraRelayOptions) {
    this.store = options.store;
    this.feed = options.feed;
    this.#clock = options.clock;
    this.timeouts = options.timeouts ?? DEFAULT_THREAD_TIMEOUTS;
    this.#verifier = options.verifier ?? new DidVerifier();
    this.#check = (did, message, signature) => this.#verifier.verify(did, message, signature);
  }

  now(): number {
    return this.#clock.now();
  }

  /** Hears each envelope's verdict: refused by verify or accept (with its code), stored, or a duplicate. */
  onOutcome(listener: (outcome: RelayOutcome) => void): () => void {
    this.#outcomes.add(listener);
    return () => this.#outcomes.delete(listener);
  }

  #tell<T extends { ok: boolean; error?: AgoraError; duplicate?: boolean }>(result: T): T {
    const outcome: RelayOutcome = result.ok
      ? { ok: true, duplicate: result.duplicate === true }
      : { ok: false, code: result.error!.code, reason: result.error!.details.reason };
    for (const listener of [...this.#outcomes]) {
      try {
        listener(outcome);
      } catch (error) {
        log.error({ err: error }, 'a relay outcome listener failed');
      }
    }
    return result;
  }

  /**
   * Parses and verifies a request body up to, and including, the replay check and meta.ttl.
   * `bytes` is the body's length on the wire. Nothing is stored.
   */
  async verify(text: string, bytes: number): Promise<Result<Verified, AgoraError>> {
    const verified = await this.#verify(text, bytes);
    return verified.ok ? verified : this.#tell(verified);
  }

  async #verify(text: string, bytes: number): Promise<Result<Verified, AgoraError>> {
    if (bytes > MAX_ENVELOPE_BYTES) {
      return {
        ok: false,
        error: agoraError(
          'payload_too_large',
          `An envelope may be at most ${MAX_ENVELOPE_BYTES} bytes; this one is ${bytes}.`,
          { limit: MAX_ENVELOPE_BYTES, size: bytes },
        ),
      };
    }
    // Duplicate keys would let the relay verify one reading and a client act on another.
    const parsed = parseStrictJson(text);
    if (!parsed.ok) return { ok: false, error: agoraError('not_json', parsed.error.message) };
    const raw = parsed.value;
    const id =
      raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { id?: unknown }).id : undefined;
    // The replay memory is the store's unique id: read it first, re-checked inside the append.
    const known = typeof id === 'string' && id.length <= 256 ? await this.store.findDigest(id) : undefined;
    let json = '';
    const checked = checkIncoming(raw, {
      now: this.#clock.now(),
      seen: { lookup: (candidate) => (candidate === id ? known : undefined) },
      verify: this.#check,
      // The signature check's JCS pass serves the digest and the stored text (envelopeDigest, on node:crypto).
      digest: (canonical) => sha256Hex((json = canonical)),
    });
    if (!checked.ok) return checked;
    return ok({ ...checked.value, json });
  }

  /** POST /events: verify, then store with the thread decision in one transaction. */
  async post(text: string, bytes: number): Promise<PostOutcome> {
    const verified = await this.verify(text, bytes);
    if (!verified.ok) return verified;
    return this.accept(verified.value);
  }

  /** Stores a verified event (registrations are the directory's: see Directory.registerVerified). */
  async accept(verified: Verified): Promise<PostOutcome> {
    return this.#tell(await this.#accept(verified));
  }

  async #accept(verified: Verified): Promise<PostOutcome> {
    const { envelope, digest, expiresAt, json } = verified;
    if (isRegistration(envelope)) throw new TypeError('registrations go to the directory');
    const carried = isOacopCarrier(envelope) ? readCarrier(envelope) : undefined;
    if (carried && !carried.ok) {
      // Stateless OACoP checks only (§7 schemas and the cross-field rules): the revision rule and
      // everything else that needs a thread is each receiving agent's (OACoP §3.4.2).
      const { code, message, details } = carried.error;
      return {
        ok: false,
        error: agoraError('oacop_invalid_message', message, {
          oacopCode: code,
          ...(details ? { oacop: details } : {}),
        }),
      };
    }
    const now = this.#clock.now();
    const record = toRecord(envelope, 'event', digest, now, expiresAt, json);
    const outcome = await this.store.appendEvent(record, this.#decide(envelope, now));
    switch (outcome.outcome) {
      case 'stored':
        this.feed.publish(outcome.envelope);
        return {
          ok: true,
          id: envelope.id,
          duplicate: false,
          envelope: outcome.envelope,
          ...(outcome.thread ? { thread: outcome.thread } : {}),
        };
      case 'duplicate':
        return { ok: true, id: envelope.id, duplicate: true, envelope: outcome.envelope };
      case 'id_conflict':
        return {
          ok: false,
          error: agoraError('id_conflict', `Message id ${envelope.id} was already used for a different envelope.`, {
            id: envelope.id,
          }),
        };
      case 'refused':
        return { ok: false, error: outcome.error };
      default:
        throw new TypeError('unknown append outcome');
    }
  }

  /** The thread rule as the store runs it: tick the stored state to now, then apply the message. */
  #decide(envelope: Envelope, now: number): ThreadDecision {
    // OACoP carriers are one-way messages, not REQUEST → OFFER threads (decisions-oacop.md §A1).
    if (isOacopCarrier(envelope)) return () => ok(null);
    return (thread) => {
      const current = thread ? tick(thread.state, now, this.timeouts) : openThread(envelope.thread.id);
      const next = transition(current, { type: 'message', envelope, now });
      if (!next.ok) return next;
      return ok({ state: next.value, deadlineAt: threadDeadline(next.value, this.timeouts) });
    };
  }
}

export function toRecord(
  envelope: Envelope,
  kind: NewRelayEnvelope['kind'],
  digest: string,
  now: number,
  expiresAt: number,
  json: string,
): NewRelayEnvelope {
  return {
    id: envelope.id,
    kind,
    digest,
    type: envelope.type,
    sender: envelope.sender.id,
    recipient: envelope.recipient?.id ?? null,
    threadId: envelope.thread.id,
    ts: timestampMs(envelope.ts),
    receivedAt: now,
    expiresAt,
    json,
  };
}
