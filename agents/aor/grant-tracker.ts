// The agent's view of its own mic grants (AOR §5.3, §5.4), folded from the control topic with
// the same reducer the gateway uses (`applyControl`), plus what the agent observes of its budget:
// each of its candidates that shows up on public spent one message (§7 "message count").
import type { MicGrantEnvelope, MicRevokeEnvelope } from '@shared/aor/envelope';
import {
  applyControl,
  emptyGrantState,
  getGrant,
  grantKeyId,
  remainingMessages,
  withGrant,
  type ControlEffect,
  type GrantKey,
  type GrantRecord,
  type GrantState,
} from '@shared/aor/mic-grants';
import type { MessageType } from '@shared/aor/payloads';

/** A grant as a task handler sees it. Times are Unix seconds, as on the wire. */
export interface GrantView {
  readonly roomId: string;
  readonly taskId: string;
  /** Envelope id of the mic_grant in force: a re-grant has a new id and a fresh budget. */
  readonly grantId: string;
  readonly maxMessages: number;
  readonly allowedMessageTypes: readonly MessageType[];
  readonly expiresAt: number;
  /** Messages of this agent approved under this grant, as seen on public. */
  readonly spent: number;
  readonly remaining: number;
  readonly revoked: boolean;
  readonly revokeReason?: string;
}

export type GrantChange = { readonly key: GrantKey; readonly effect: ControlEffect };

const view = (g: GrantRecord): GrantView => ({
  roomId: g.key.roomId,
  taskId: g.key.taskId,
  grantId: g.grantId,
  maxMessages: g.maxMessages,
  allowedMessageTypes: g.allowedMessageTypes,
  expiresAt: g.expiresAt,
  spent: g.spent,
  remaining: remainingMessages(g),
  revoked: g.revoked !== undefined,
  ...(g.revoked?.reason === undefined ? {} : { revokeReason: g.revoked.reason }),
});

/** Live: not revoked and, by the agent's clock, not past `expires_at` (inclusive, AOR §7). */
export const isLive = (grant: GrantView | undefined, nowSeconds: number): grant is GrantView =>
  grant !== undefined && !grant.revoked && Math.floor(nowSeconds) <= grant.expiresAt;

export class GrantTracker {
  #state: GrantState = emptyGrantState;
  /** Approved message ids counted per grant id, so a QoS 1 redelivery never counts twice. */
  readonly #counted = new Map<string, Set<string>>();
  readonly #listeners = new Set<(change: GrantChange) => void>();

  constructor(private readonly agentId: string) {}

  /** Folds a control envelope from `rooms/{roomId}/control`; grants for other agents are ignored. */
  applyControl(envelope: MicGrantEnvelope | MicRevokeEnvelope, roomId: string): ControlEffect | undefined {
    if (envelope.payload.agent_id !== this.agentId) return undefined;
    const outcome = applyControl(this.#state, envelope, roomId);
    if (!outcome.ok || !outcome.value.key) return undefined;
    this.#state = outcome.value.state;
    this.#emit({ key: outcome.value.key, effect: outcome.value.effect });
    return outcome.value.effect;
  }

  /** One of this agent's candidates for `key` was approved (seen on public). */
  noteApproved(key: GrantKey, messageId: string): void {
    const grant = getGrant(this.#state, key);
    if (!grant) return;
    const counted = this.#counted.get(grant.grantId) ?? new Set<string>();
    if (counted.has(messageId)) return;
    counted.add(messageId);
    this.#counted.set(grant.grantId, counted);
    this.#state = withGrant(this.#state, { ...grant, spent: Math.min(grant.maxMessages, grant.spent + 1) });
  }

  /** The gateway said the budget is used up (a `message_limit_exceeded` reject). */
  noteExhausted(key: GrantKey): void {
    const grant = getGrant(this.#state, key);
    if (grant) this.#state = withGrant(this.#state, { ...grant, spent: grant.maxMessages });
  }

  get(key: GrantKey): GrantView | undefined {
    const grant = getGrant(this.#state, key);
    return grant && view(grant);
  }

  onChange(listener: (change: GrantChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(change: GrantChange): void {
    for (const listener of [...this.#listeners]) listener(change);
  }
}

export const sameKey = (a: GrantKey, b: GrantKey): boolean => grantKeyId(a) === grantKeyId(b);
