// What the server writes for a message it routes, whichever broker hands it over (the embedded
// broker's hook before routing, the console bridge's before forwarding): the room's history and,
// for an operator's publish, the audit log.
import { parseTopic } from '@shared/aor/topics';
import type { BrokerIdentity } from '../mqtt/acl';
import type { BrokerMessage } from '../mqtt/broker-port';
import type { HistoryRecorder } from '../rooms/history-recorder';
import type { Store } from '../store/store';

/** Stores the message in its room's history, then audits it when an operator published it. */
export function recordWithAudit(store: Store, history: HistoryRecorder): (message: BrokerMessage) => Promise<void> {
  return async (message) => {
    const stored = await history.record(message);
    if (message.publisher?.kind === 'operator')
      await auditOperatorPublish(store, message, message.publisher, stored.cursor);
  };
}

/** Facilitators act over MQTT (say, task, grants); each act lands in the audit log. */
async function auditOperatorPublish(
  store: Store,
  message: BrokerMessage,
  operator: Extract<BrokerIdentity, { kind: 'operator' }>,
  cursor: number,
): Promise<void> {
  const topic = parseTopic(message.topic);
  if (!topic.ok) return;
  let type = 'unknown';
  let messageId: string | null = null;
  let details: Record<string, unknown> = { topic: message.topic, cursor };
  try {
    const envelope = JSON.parse(new TextDecoder().decode(message.payload)) as {
      id?: string;
      type?: string;
      payload?: Record<string, unknown>;
    };
    type = envelope.type ?? type;
    messageId = envelope.id ?? null;
    const p = envelope.payload ?? {};
    details = {
      ...details,
      ...pick(p, ['task_id', 'agent_id', 'max_messages', 'expires_at', 'reason', 'goal', 'deadline']),
    };
    if ('agentId' in topic.value) details.agent_id ??= topic.value.agentId;
  } catch {
    // The ACL already refused operator publishes that are not envelopes.
  }
  await store.access.appendAudit({
    at: message.receivedAt,
    actorDid: operator.did,
    action: `room.${type}`,
    roomId: topic.value.roomId,
    messageId,
    details,
  });
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}
