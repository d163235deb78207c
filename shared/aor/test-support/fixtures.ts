// Envelopes for tests, close to the spec's own examples (AOR §5, §6).
import type { From, MicGrantEnvelope, MicRevokeEnvelope, ResultEnvelope } from '../envelope';
import type { MessageType } from '../payloads';
import { MESSAGE_TYPES } from '../payloads';

export const T0 = 1_734_530_000; // AOR §4 example ts

export const FACILITATOR: From = { kind: 'user', id: 'user.facilitator' };

export const CONTENT_EXAMPLES: Record<MessageType, Record<string, unknown>> = {
  ack: { text: 'Working on this now.' },
  clarifying_question: { question: 'Should this target EMQX or Mosquitto?' },
  progress: { text: 'Reviewed pricing; checking scaling next.' },
  finding: { bullets: ['Option A is 30% cheaper', 'Option B has built-in HA'] },
  risk: { text: 'Direct publish bypasses moderation.', severity: 'high', mitigation: 'Enforce Gateway ACLs' },
  result: { text: 'Use a Gateway to moderate agent output.' },
  artifact_link: { label: 'Architecture diagram', url: 'https://example.com/diagram.png' },
};

interface GrantOptions {
  id?: string;
  roomId?: string;
  agentId?: string;
  taskId?: string;
  maxMessages?: number;
  allowed?: readonly MessageType[];
  expiresAt?: number;
  ts?: number;
  from?: From;
}

export function micGrant(o: GrantOptions = {}): MicGrantEnvelope {
  return {
    id: o.id ?? 'msg_grant_1',
    type: 'mic_grant',
    room_id: o.roomId ?? 'room_1',
    from: o.from ?? FACILITATOR,
    ts: o.ts ?? T0,
    payload: {
      task_id: o.taskId ?? 'task_42',
      agent_id: o.agentId ?? 'agent.researcher',
      max_messages: o.maxMessages ?? 6,
      allowed_message_types: [...(o.allowed ?? MESSAGE_TYPES)],
      expires_at: o.expiresAt ?? T0 + 1200,
    },
  };
}

interface RevokeOptions {
  id?: string;
  roomId?: string;
  agentId?: string;
  taskId?: string;
  ts?: number;
  from?: From;
  reason?: string;
}

export function micRevoke(o: RevokeOptions = {}): MicRevokeEnvelope {
  return {
    id: o.id ?? 'msg_revoke_1',
    type: 'mic_revoke',
    room_id: o.roomId ?? 'room_1',
    from: o.from ?? FACILITATOR,
    ts: o.ts ?? T0 + 10,
    payload: {
      task_id: o.taskId ?? 'task_42',
      agent_id: o.agentId ?? 'agent.researcher',
      ...(o.reason === undefined ? {} : { reason: o.reason }),
    },
  };
}

interface ResultOptions {
  id?: string;
  roomId?: string;
  from?: From;
  taskId?: string;
  messageType?: MessageType;
  ts?: number;
}

export function resultEnvelope(o: ResultOptions = {}): ResultEnvelope {
  const messageType = o.messageType ?? 'finding';
  return {
    id: o.id ?? 'msg_123',
    type: 'result',
    room_id: o.roomId ?? 'room_1',
    from: o.from ?? { kind: 'agent', id: 'agent.researcher' },
    ts: o.ts ?? T0,
    payload: { task_id: o.taskId ?? 'task_42', message_type: messageType, content: CONTENT_EXAMPLES[messageType] },
  } as ResultEnvelope;
}

const encoder = new TextEncoder();
export const bytesOf = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));
