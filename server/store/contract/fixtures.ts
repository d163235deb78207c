// What the store contract's parts share: fixed instants and builders for messages, grants,
// relay envelopes, threads and directory records.
import type { NewRoomMessage, Store, StoredRoomMessage } from '../store';
import type { DirectoryRecord, NewRelayEnvelope, ThreadDecision } from '../relay-store';
import type { ThreadState } from '@shared/agora/thread-state';

export const T0 = 1_760_000_000_000; // ms
export const S0 = 1_760_000_000; // Unix seconds, for mic grants (AOR §4)

export function message(roomId: string, n: number, overrides: Partial<NewRoomMessage> = {}): NewRoomMessage {
  return {
    roomId,
    topic: `rooms/${roomId}/public`,
    topicKind: 'public',
    topicAgentId: null,
    messageId: `m-${roomId}-${n}`,
    type: 'chat',
    fromId: 'agent-a',
    payload: new TextEncoder().encode(JSON.stringify({ n })),
    receivedAt: T0 + n,
    ...overrides,
  };
}

export const cursors = (messages: readonly StoredRoomMessage[]) => messages.map((m) => m.cursor);

export function grant(
  overrides: Partial<Parameters<Store['rooms']['putGrant']>[0]> = {},
): Parameters<Store['rooms']['putGrant']>[0] {
  return {
    roomId: 'r1',
    agentId: 'agent-a',
    taskId: 't1',
    maxMessages: 3,
    allowedTypes: ['chat', 'result'],
    expiresAt: S0 + 300,
    grantedAt: S0,
    grantMessageId: 'grant-1',
    ...overrides,
  };
}

export function relayEnvelope(id: string, overrides: Partial<NewRelayEnvelope> = {}): NewRelayEnvelope {
  return {
    id,
    kind: 'event',
    digest: `digest-${id}`,
    type: 'REQUEST',
    sender: 'did:key:zClient',
    recipient: 'did:key:zAgent',
    threadId: `thread-${id}`,
    ts: T0,
    receivedAt: T0,
    expiresAt: T0 + 300_000,
    json: JSON.stringify({ id }),
    ...overrides,
  };
}

export const pending = (threadId: string, client = 'did:key:zClient'): ThreadState => ({
  status: 'PENDING',
  threadId,
  client,
  requestId: 'req',
  requestMessageId: 'm',
  requestedAt: T0,
  offers: [{ offerId: 'o', agent: 'did:key:zAgent', receivedAt: T0 }],
});

/** Accepts every message: opens the thread as PENDING with a deadline. */
export const open: ThreadDecision = (thread) => ({
  ok: true,
  value: { state: pending(thread?.threadId ?? 'unknown'), deadlineAt: T0 + 1000 },
});

export function directoryRecord(
  did: string,
  registeredAt: number,
  envelopeId: string,
  name = 'Agent',
): DirectoryRecord {
  return {
    did,
    manifest: { name },
    scope: 'public',
    authorizedAgents: [],
    aorAgentId: null,
    endpoint: null,
    registeredAt,
    envelopeId,
  };
}
