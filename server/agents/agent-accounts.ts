// An agent as the console shows it (shared/contract/agents.ts AgentAccount): its credential's
// state, what the broker says of its connections, where presence has heard it, the grants it
// holds and its rejects. Pure: the service gathers the parts.
import type { AgentAccount } from '@shared/contract/agents';
import type { AgentCredential, GrantRecord } from '../store/store';

export interface AccountParts {
  /** Null when the broker cannot say (an external one). */
  readonly connections: number | null;
  /** Rooms where presence heard the agent, and when last. */
  readonly heard: readonly { readonly roomId: string; readonly lastSeenAt: number }[];
  /** The agent's live grants. */
  readonly grants: readonly GrantRecord[];
  readonly rejectsLastHour: number;
  /** The suspender's display name, when suspended. */
  readonly suspendedByName: string | null;
  readonly lastAction: AgentAccount['lastAction'];
}

export function agentAccount(credential: AgentCredential, parts: AccountParts): AgentAccount {
  const lastSeen = parts.heard.reduce<number | null>(
    (max, h) => (max === null || h.lastSeenAt > max ? h.lastSeenAt : max),
    null,
  );
  const rooms = [...new Set([...parts.heard.map((h) => h.roomId), ...parts.grants.map((g) => g.roomId)])].sort();
  return {
    agentId: credential.agentId,
    createdAt: credential.createdAt,
    suspended: credential.suspended && { ...credential.suspended, byName: parts.suspendedByName },
    connections: parts.connections,
    lastSeenAt: lastSeen,
    rooms,
    grants: parts.grants.map((g) => ({
      roomId: g.roomId,
      taskId: g.taskId,
      maxMessages: g.maxMessages,
      spent: g.spent,
      expiresAt: g.expiresAt,
    })),
    rejectsLastHour: parts.rejectsLastHour,
    lastAction: parts.lastAction,
  };
}
