// Mic grant state (AOR §5.3, §5.4) as a pure reducer over control events. The gateway, the
// console's live view and tests all fold the same control stream through `applyControl`.
import { fail, ok, type Result } from '../errors';
import type { Envelope, From, MicGrantEnvelope, MicRevokeEnvelope } from './envelope';
import type { MessageType } from './payloads';
import { wholeSeconds } from './time';

/** AOR §7: a grant is scoped to (roomId, agentId, task_id). */
export interface GrantKey {
  readonly roomId: string;
  readonly agentId: string;
  readonly taskId: string;
}

// Ids cannot hold "/" (ids.ts), so the joined form is unambiguous.
export const grantKeyId = (key: GrantKey): string => `${key.roomId}/${key.agentId}/${key.taskId}`;

export interface Revocation {
  readonly revokeId: string;
  readonly at: number;
  readonly by: From;
  readonly reason?: string;
}

export interface GrantRecord {
  readonly key: GrantKey;
  /** Envelope id of the mic_grant in force; each grant has its own budget. */
  readonly grantId: string;
  readonly grantedAt: number;
  readonly grantedBy: From;
  readonly maxMessages: number;
  readonly allowedMessageTypes: readonly MessageType[];
  readonly expiresAt: number;
  /** Messages approved under this grant. */
  readonly spent: number;
  readonly revoked?: Revocation;
  /** Control envelope ids already applied to this key: a redelivery (MQTT QoS 1) changes nothing. */
  readonly appliedControlIds: readonly string[];
}

export interface GrantState {
  readonly grants: ReadonlyMap<string, GrantRecord>;
}

export const emptyGrantState: GrantState = { grants: new Map() };

export const getGrant = (state: GrantState, key: GrantKey): GrantRecord | undefined =>
  state.grants.get(grantKeyId(key));

export const remainingMessages = (grant: GrantRecord): number => Math.max(0, grant.maxMessages - grant.spent);

export function withGrant(state: GrantState, grant: GrantRecord): GrantState {
  const grants = new Map(state.grants);
  grants.set(grantKeyId(grant.key), grant);
  return { grants };
}

/** What a control envelope did, for audit logs and tests. */
export type ControlEffect =
  | 'granted' // first grant for the key
  | 'replaced' // a newer grant took over: fresh budget, revocation cleared
  | 'revoked'
  | 'ignored_already_revoked' // the first revoke is the one that ended the grant
  | 'ignored_redelivery' // this envelope id was already applied
  | 'ignored_stale' // older (by ts) than the grant in force
  | 'ignored_no_grant' // revoke for a key with no grant
  | 'not_a_grant_event'; // other envelope types leave mic state alone

export interface ControlOutcome {
  readonly state: GrantState;
  readonly effect: ControlEffect;
  readonly key?: GrantKey;
}

/**
 * Folds one envelope received on `rooms/{topicRoomId}/control` into the grant state. The room
 * comes from the topic, as for candidates. Grants and revokes from an agent are refused
 * (`unauthorized_control`): the §8 ACL already denies agents the control topic, and an agent
 * must never be able to grant itself a mic even where that ACL is misconfigured.
 */
export function applyControl(state: GrantState, envelope: Envelope, topicRoomId: string): Result<ControlOutcome> {
  if (envelope.type !== 'mic_grant' && envelope.type !== 'mic_revoke') {
    return ok({ state, effect: 'not_a_grant_event' });
  }
  if (envelope.room_id !== topicRoomId) {
    return fail('room_mismatch', `Control envelope names room ${envelope.room_id} but arrived in ${topicRoomId}.`, {
      messageId: envelope.id,
    });
  }
  if (envelope.from.kind === 'agent') {
    return fail(
      'unauthorized_control',
      `${envelope.type} from agent ${envelope.from.id} refused: only a facilitator grants or revokes.`,
      {
        messageId: envelope.id,
      },
    );
  }
  return ok(envelope.type === 'mic_grant' ? grant(state, envelope, topicRoomId) : revoke(state, envelope, topicRoomId));
}

function grant(state: GrantState, envelope: MicGrantEnvelope, roomId: string): ControlOutcome {
  const p = envelope.payload;
  const key: GrantKey = { roomId, agentId: p.agent_id, taskId: p.task_id };
  const current = getGrant(state, key);
  if (current?.appliedControlIds.includes(envelope.id)) return { state, effect: 'ignored_redelivery', key };
  if (current && envelope.ts < current.grantedAt) return { state, effect: 'ignored_stale', key };
  const next: GrantRecord = {
    key,
    grantId: envelope.id,
    grantedAt: envelope.ts,
    grantedBy: envelope.from,
    maxMessages: p.max_messages,
    allowedMessageTypes: [...new Set(p.allowed_message_types)],
    expiresAt: p.expires_at,
    spent: 0,
    appliedControlIds: [...(current?.appliedControlIds ?? []), envelope.id],
  };
  return { state: withGrant(state, next), effect: current ? 'replaced' : 'granted', key };
}

function revoke(state: GrantState, envelope: MicRevokeEnvelope, roomId: string): ControlOutcome {
  const p = envelope.payload;
  const key: GrantKey = { roomId, agentId: p.agent_id, taskId: p.task_id };
  const current = getGrant(state, key);
  if (!current) return { state, effect: 'ignored_no_grant', key };
  if (current.appliedControlIds.includes(envelope.id)) return { state, effect: 'ignored_redelivery', key };
  // A revoke older than the grant in force was meant for a grant it replaced.
  if (envelope.ts < current.grantedAt) return { state, effect: 'ignored_stale', key };
  if (current.revoked) return { state, effect: 'ignored_already_revoked', key };
  const revoked: Revocation = {
    revokeId: envelope.id,
    at: envelope.ts,
    by: envelope.from,
    ...(p.reason === undefined ? {} : { reason: p.reason }),
  };
  const next: GrantRecord = {
    ...current,
    revoked,
    appliedControlIds: [...current.appliedControlIds, envelope.id],
  };
  return { state: withGrant(state, next), effect: 'revoked', key };
}

/**
 * Grants whose time is up and that no revoke has ended yet, ordered by key: the sweeper ends
 * each with a control event (`buildGrantEndRevoke`), which `applyControl` then records.
 * Expiry is inclusive: a grant is live through the whole second `expires_at` (AOR §7).
 */
export function expiredGrants(state: GrantState, now: number): GrantRecord[] {
  const second = wholeSeconds(now);
  return [...state.grants.values()]
    .filter((g) => g.revoked === undefined && second > g.expiresAt)
    .sort((a, b) => (grantKeyId(a.key) < grantKeyId(b.key) ? -1 : 1));
}
