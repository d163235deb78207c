// How much one agent may publish (decisions-server.md §45): two token buckets per agent identity,
// one counting messages and one counting payload bytes, each written like the HTTP rates
// (`N/window`: a burst of N refilled at N per window). Keyed by agent id, not by connection, so
// reconnecting or opening a second connection draws on the same buckets. A publish is taken from
// both buckets or from neither, so a refusal by one never spends the other.
import type { Clock } from '../clock';
import { parseRate, type Rate } from '../http/limits';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('mqtt');

export interface PublishQuotaLimits {
  /** Messages per agent; undefined: not limited. */
  readonly messages: Rate | undefined;
  /** Payload bytes per agent; undefined: not limited. */
  readonly bytes: Rate | undefined;
}

const MIB = 1024 * 1024;

/**
 * Far above a real agent: the soak's agents send 50 candidates a second each, the demo's a few a
 * minute, and a heartbeat every 5 s is 12 a minute. 100 messages a second sustained (a burst of
 * 6,000) and 16 MiB a minute (about 280 KB/s sustained) still hold one agent three orders of
 * magnitude below the tens of MB/s a flooding agent wrote into history without them.
 */
export const DEFAULT_PUBLISH_QUOTAS: PublishQuotaLimits = {
  messages: { capacity: 6000, refillPerSecond: 100 },
  bytes: { capacity: 16 * MIB, refillPerSecond: (16 * MIB) / 60 },
};

/** A byte bucket holds at least one largest packet (MAX_PACKET_BYTES), or such a packet could never pass. */
export const MIN_BYTE_QUOTA = 512 * 1024;

export const UNLIMITED_PUBLISH_QUOTAS: PublishQuotaLimits = { messages: undefined, bytes: undefined };

export type QuotaReason = 'message_rate_too_high' | 'byte_quota_exceeded';

export type QuotaVerdict =
  { readonly ok: true } | { readonly ok: false; readonly reason: QuotaReason; readonly retryAfterSeconds: number };

interface Buckets {
  messages: number;
  bytes: number;
  at: number;
}

const UNITS: Readonly<Record<string, number>> = { '': 1, B: 1, KiB: 1024, MiB: MIB, GiB: 1024 * MIB };

/** "16MiB/min" or "65536/s" → a burst of that many bytes, refilled over the window; undefined for anything else. */
export function parseByteRate(text: string): Rate | undefined {
  const match = /^(\d{1,7})(B|KiB|MiB|GiB)?\/(s|min|h)$/.exec(text.trim());
  if (!match) return undefined;
  const perWindow = parseRate(`${match[1]}/${match[3]}`);
  if (!perWindow) return undefined;
  const unit = UNITS[match[2] ?? '']!;
  return { capacity: perWindow.capacity * unit, refillPerSecond: perWindow.refillPerSecond * unit };
}

export class PublishQuotas {
  readonly #buckets = new Map<string, Buckets>();
  /**
   * Agents in an episode of refusals: one log line per episode, not per message. An episode ends
   * only once the agent's buckets are full again (it kept under its rate for a whole burst), so an
   * agent riding its quota, one publish accepted and the next refused, stays in one episode.
   */
  readonly #over = new Set<string>();

  constructor(
    readonly limits: PublishQuotaLimits,
    private readonly clock: Clock,
    private readonly onOver: (agentId: string, reason: QuotaReason, limits: PublishQuotaLimits) => void = logOver,
  ) {}

  /**
   * Takes one message of `bytes` from `agentId`'s buckets, or refuses it. The map holds one entry
   * per agent that ever published: agents are provisioned identities with stored credentials, so
   * it is bounded by the credential table, not by anything a client can invent.
   */
  take(agentId: string, bytes: number): QuotaVerdict {
    const { messages, bytes: byteRate } = this.limits;
    if (!messages && !byteRate) return { ok: true };
    const now = this.clock.now();
    let bucket = this.#buckets.get(agentId);
    if (!bucket) {
      bucket = { messages: messages?.capacity ?? 0, bytes: byteRate?.capacity ?? 0, at: now };
      this.#buckets.set(agentId, bucket);
    } else {
      // Refilled in place: the broker asks on every publish, and a bucket per call would be garbage.
      const elapsed = Math.max(0, now - bucket.at) / 1000;
      if (messages) bucket.messages = Math.min(messages.capacity, bucket.messages + elapsed * messages.refillPerSecond);
      if (byteRate) bucket.bytes = Math.min(byteRate.capacity, bucket.bytes + elapsed * byteRate.refillPerSecond);
      bucket.at = Math.max(bucket.at, now);
    }
    if (
      this.#over.has(agentId) &&
      (!messages || bucket.messages >= messages.capacity) &&
      (!byteRate || bucket.bytes >= byteRate.capacity)
    )
      this.#over.delete(agentId);
    const verdict = refusal(bucket, messages, byteRate, bytes);
    if (verdict) {
      if (!this.#over.has(agentId)) {
        this.#over.add(agentId);
        this.onOver(agentId, verdict.reason, this.limits);
      }
      return verdict;
    }
    if (messages) bucket.messages -= 1;
    if (byteRate) bucket.bytes -= bytes;
    return { ok: true };
  }
}

function refusal(
  bucket: Buckets,
  messages: Rate | undefined,
  byteRate: Rate | undefined,
  bytes: number,
): Extract<QuotaVerdict, { ok: false }> | undefined {
  if (messages && bucket.messages < 1) {
    return {
      ok: false,
      reason: 'message_rate_too_high',
      retryAfterSeconds: Math.ceil((1 - bucket.messages) / messages.refillPerSecond),
    };
  }
  if (byteRate && bucket.bytes < bytes) {
    // A message larger than the whole bucket waits for a full bucket, and is refused then too:
    // config.ts keeps the bucket at least as large as the biggest packet the broker takes.
    return {
      ok: false,
      reason: 'byte_quota_exceeded',
      retryAfterSeconds: Math.ceil((Math.min(bytes, byteRate.capacity) - bucket.bytes) / byteRate.refillPerSecond),
    };
  }
  return undefined;
}

function describeRate(rate: Rate | undefined, unit: string): string {
  return rate
    ? `${Math.round(rate.capacity)} ${unit} at once, ${Math.round(rate.refillPerSecond)} ${unit}/s after`
    : 'unlimited';
}

function logOver(agentId: string, reason: QuotaReason, limits: PublishQuotaLimits): void {
  const quota =
    reason === 'message_rate_too_high'
      ? describeRate(limits.messages, 'messages')
      : describeRate(limits.bytes, 'bytes');
  log.warn(
    { code: 'MQTT_QUOTA', agentId, reason, quota },
    'refusing publishes from an agent over its quota until its budget refills',
  );
}
