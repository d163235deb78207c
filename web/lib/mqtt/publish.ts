// What a facilitator publishes (README "Topics and rights"): `say` on public, `task` on an
// agent's inbox, `mic_grant` / `mic_revoke` on control, always from { kind: 'user', id: <DID> }.
// Envelopes are built and checked by the shared core, so the broker's ACL and the gateway see
// exactly what the spec describes.
import { buildEnvelope, type EnvelopeDraft } from '@shared/aor/control-envelopes';
import type { EnvelopeOf, EnvelopeType } from '@shared/aor/envelope';
import type { MessageType } from '@shared/aor/payloads';
import { controlTopic, inboxTopic, publicTopic } from '@shared/aor/topics';
import { describeMqttError, liveClient } from './room-connection';

const newId = () => `msg_${crypto.randomUUID()}`;
const nowSeconds = () => Date.now() / 1000;

export const newTaskId = () => `task_${crypto.randomUUID().slice(0, 8)}`;

function build<T extends EnvelopeType>(draft: EnvelopeDraft<T>): EnvelopeOf<T> {
  return buildEnvelope(draft, { newId, now: nowSeconds() });
}

async function publish(topic: string, envelope: unknown): Promise<void> {
  const client = liveClient();
  try {
    // QoS 1: the PUBACK carries the broker's verdict (MQTT 5 reason code), so a refusal is seen.
    await client.publishAsync(topic, JSON.stringify(envelope));
  } catch (error) {
    throw new Error(describeMqttError(error));
  }
}

const user = (did: string) => ({ kind: 'user', id: did }) as const;

export async function say(roomId: string, did: string, text: string) {
  const envelope = build({ type: 'say', roomId, from: user(did), payload: { text } });
  await publish(publicTopic(roomId), envelope);
  return envelope;
}

export interface TaskAssignment {
  readonly agentId: string;
  readonly taskId: string;
  readonly goal: string;
  readonly format?: string;
  /** Unix seconds. */
  readonly deadline?: number;
  readonly allowedTypes: readonly MessageType[];
  readonly maxMessages: number;
  /** Unix seconds. */
  readonly expiresAt: number;
}

/**
 * The grant goes out before the task: an agent that acknowledges the moment its task arrives
 * must find its mic already granted, or the gateway would reject the ack as `no_mic_grant`.
 * Both envelopes are built (and so checked) before either is sent.
 */
export async function assignTask(roomId: string, did: string, a: TaskAssignment) {
  const grant = build({
    type: 'mic_grant',
    roomId,
    from: user(did),
    payload: {
      task_id: a.taskId,
      agent_id: a.agentId,
      max_messages: a.maxMessages,
      allowed_message_types: [...a.allowedTypes],
      expires_at: a.expiresAt,
    },
  });
  const task = build({
    type: 'task',
    roomId,
    from: user(did),
    payload: {
      task_id: a.taskId,
      goal: a.goal,
      ...(a.format ? { format: a.format } : {}),
      ...(a.deadline !== undefined ? { deadline: a.deadline } : {}),
    },
  });
  await publish(controlTopic(roomId), grant);
  await publish(inboxTopic(roomId, a.agentId), task);
  return { grant, task };
}

export async function revokeGrant(
  roomId: string,
  did: string,
  agentId: string,
  taskId: string,
  reason = 'revoked by facilitator',
) {
  const envelope = build({
    type: 'mic_revoke',
    roomId,
    from: user(did),
    payload: { task_id: taskId, agent_id: agentId, reason },
  });
  await publish(controlTopic(roomId), envelope);
  return envelope;
}
