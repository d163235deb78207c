// AOR §3 topic map: builders and a parser. The room (and agent) a message concerns is read from
// its topic, never from its envelope (AOR §2: intent is defined by the topic).
import { assertNever, fail, ok, type Result } from '../errors';
import { assertValidId, isValidId } from './ids';

export const ROOM_TOPIC_KINDS = ['public', 'public_candidates', 'control'] as const;
export const AGENT_TOPIC_KINDS = ['inbox', 'heartbeat', 'work'] as const;
export type RoomTopicKind = (typeof ROOM_TOPIC_KINDS)[number];
export type AgentTopicKind = (typeof AGENT_TOPIC_KINDS)[number];
export type TopicKind = RoomTopicKind | AgentTopicKind;

export type AorTopic =
  | { readonly kind: RoomTopicKind; readonly roomId: string }
  | { readonly kind: AgentTopicKind; readonly roomId: string; readonly agentId: string };

/** Subscription filters of the §8 ACL model. */
export const TOPIC_FILTERS = {
  public: 'rooms/+/public',
  publicCandidates: 'rooms/+/public_candidates',
  control: 'rooms/+/control',
} as const;

/** The topic name of a described topic; throws CodedError `invalid_id` on a bad id. */
export function buildTopic(topic: AorTopic): string {
  assertValidId(topic.roomId, 'roomId');
  switch (topic.kind) {
    case 'public':
    case 'public_candidates':
    case 'control':
      return `rooms/${topic.roomId}/${topic.kind}`;
    case 'inbox':
    case 'heartbeat':
    case 'work':
      assertValidId(topic.agentId, 'agentId');
      return `rooms/${topic.roomId}/agents/${topic.agentId}/${topic.kind}`;
    default:
      return assertNever(topic, 'topic kind');
  }
}

export const publicTopic = (roomId: string) => buildTopic({ kind: 'public', roomId });
export const publicCandidatesTopic = (roomId: string) => buildTopic({ kind: 'public_candidates', roomId });
export const controlTopic = (roomId: string) => buildTopic({ kind: 'control', roomId });
export const inboxTopic = (roomId: string, agentId: string) => buildTopic({ kind: 'inbox', roomId, agentId });
export const heartbeatTopic = (roomId: string, agentId: string) => buildTopic({ kind: 'heartbeat', roomId, agentId });
export const workTopic = (roomId: string, agentId: string) => buildTopic({ kind: 'work', roomId, agentId });

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

const invalidTopic = (topic: string, why: string) =>
  fail('invalid_topic', `Not an AOR topic (${why}): ${topic.slice(0, 300)}`, { why });

/**
 * A topic name to its description. Refuses anything outside §3, including empty ids and ids
 * holding "/", "+" or "#" (a "/" inside an id shows up as a wrong number of levels).
 */
export function parseTopic(topic: string): Result<AorTopic> {
  if (typeof topic !== 'string') throw new TypeError('topic must be a string');
  const levels = topic.split('/');
  const [root, roomId, third, agentId, fifth] = levels;
  if (root !== 'rooms' || roomId === undefined || third === undefined)
    return invalidTopic(topic, 'not under rooms/{roomId}/');
  if (!isValidId(roomId)) return invalidTopic(topic, 'invalid roomId');
  if (levels.length === 3) {
    return isOneOf(ROOM_TOPIC_KINDS, third) ? ok({ kind: third, roomId }) : invalidTopic(topic, 'unknown room topic');
  }
  if (levels.length === 5 && third === 'agents' && agentId !== undefined && fifth !== undefined) {
    if (!isValidId(agentId)) return invalidTopic(topic, 'invalid agentId');
    return isOneOf(AGENT_TOPIC_KINDS, fifth)
      ? ok({ kind: fifth, roomId, agentId })
      : invalidTopic(topic, 'unknown agent topic');
  }
  return invalidTopic(topic, 'wrong number of levels');
}
