// Who may publish and subscribe to what (AOR §8, tightened). A pure
// function of the authenticated identity, the topic and, for operators, the envelope: the
// embedded broker calls it on every PUBLISH and SUBSCRIBE, and the Mosquitto provisioning
// writes the same rules as dynamic-security roles.
import { parseTopic } from '@shared/aor/topics';
import { MAX_GRANT_SECONDS, TEXT_LIMITS } from '@shared/contract/text-limits';
import { filterCovers, isValidFilter } from './topic-filter';

export type BrokerIdentity =
  | { readonly kind: 'agent'; readonly agentId: string }
  | { readonly kind: 'operator'; readonly did: string; readonly role: 'facilitator' | 'observer' };

export type AclVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const allow: AclVerdict = { ok: true };
const deny = (reason: string): AclVerdict => ({ ok: false, reason });

/** Topics an agent may subscribe to (§8 "Agents SUB"), plus its own inbox. */
export function agentSubscribeFilters(agentId: string): string[] {
  return ['rooms/+/public', 'rooms/+/control', `rooms/+/agents/${agentId}/inbox`];
}

/** Operators read every room topic (§8 "Facilitator SUB: all room topics"), observers too, and the console's own review-queue notices. */
export const OPERATOR_SUBSCRIBE_FILTERS = ['rooms/#', 'switchboard/rooms/#'];

/** The envelope types a facilitator may publish, by topic kind. */
const FACILITATOR_PUBLISH: Readonly<Record<string, readonly string[]>> = {
  public: ['say'],
  inbox: ['task'],
  control: ['mic_grant', 'mic_revoke'],
};

export function maySubscribe(identity: BrokerIdentity, filter: string): AclVerdict {
  if (!isValidFilter(filter)) return deny('invalid_filter');
  // Shared subscriptions would let a client steal messages meant for others; `$SYS` leaks
  // other clients' details. Neither is for agents or browsers.
  if (filter.startsWith('$')) return deny('reserved_topic');
  const allowed = identity.kind === 'agent' ? agentSubscribeFilters(identity.agentId) : OPERATOR_SUBSCRIBE_FILTERS;
  return allowed.some((a) => filterCovers(a, filter)) ? allow : deny('not_permitted');
}

export interface PublishRequest {
  readonly topic: string;
  readonly retain: boolean;
  /** The envelope's type, room and sender, when the payload is an AOR envelope; operators' publishes need them. */
  readonly envelope?:
    | {
        readonly type: string;
        readonly roomId: string;
        readonly fromKind: string;
        readonly fromId: string;
        /** Characters of what the operator wrote: a `say`'s text, a task's goal. */
        readonly textChars?: number | undefined;
        /** A mic grant's length: `expires_at` less the envelope's `ts`, in seconds. */
        readonly grantSeconds?: number | undefined;
      }
    | undefined;
}

export function mayPublish(identity: BrokerIdentity, request: PublishRequest): AclVerdict {
  const parsed = parseTopic(request.topic);
  if (!parsed.ok) return deny('not_a_room_topic');
  // A retained message would replay to every later subscriber, outside moderation and grants.
  if (request.retain) return deny('retain_not_allowed');
  const topic = parsed.value;

  if (identity.kind === 'agent') {
    // §8 "Agents PUB": candidates, and their own heartbeat and work; never public or control.
    if (topic.kind === 'public_candidates') return allow;
    if ((topic.kind === 'heartbeat' || topic.kind === 'work') && topic.agentId === identity.agentId) return allow;
    return deny('not_permitted');
  }

  if (identity.role !== 'facilitator') return deny('observer_read_only');
  const types = FACILITATOR_PUBLISH[topic.kind];
  if (!types) return deny('not_permitted');
  const envelope = request.envelope;
  if (!envelope) return deny('invalid_envelope');
  if (!types.includes(envelope.type)) return deny('type_not_permitted_on_topic');
  // The room is named twice; readers downstream trust either, so both must agree (AOR §3, §4).
  if (envelope.roomId !== topic.roomId) return deny('room_mismatch');
  // A facilitator speaks as itself: the envelope names the operator's own DID.
  if (envelope.fromKind !== 'user' || envelope.fromId !== identity.did) return deny('sender_mismatch');
  // The same limits the console's forms count against (decisions-web.md §26): a client that
  // skips the form meets them here, before anything is recorded or routed.
  if ((envelope.textChars ?? 0) > TEXT_LIMITS.message) return deny('text_too_long');
  if ((envelope.grantSeconds ?? 0) > MAX_GRANT_SECONDS) return deny('grant_too_long');
  return allow;
}
