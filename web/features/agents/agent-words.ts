// The Agents screen's words: an agent's status, "seen 5 min ago" by the server's clock, a grant's
// budget, how many agents there are, and the command a new agent's operator pastes to connect. Pure, so tested on its own.
import { unnamedOperator } from '@shared/contract/operator-name';
import { relative } from '@web/lib/time-words';
import type { AgentAccount, AgentCounts } from '@web/lib/api/agent-accounts';

export type AgentStatus =
  | { readonly kind: 'suspended'; readonly reason: string }
  | { readonly kind: 'online'; readonly connections: number | null }
  | { readonly kind: 'offline' };

/** Suspension first; an external broker does not count connections, so presence says online there. */
export function agentStatus(agent: AgentAccount, now: number, onlineWithinMs = 60_000): AgentStatus {
  if (agent.suspended) return { kind: 'suspended', reason: agent.suspended.reason };
  if (agent.connections !== null)
    return agent.connections > 0 ? { kind: 'online', connections: agent.connections } : { kind: 'offline' };
  return agent.lastSeenAt !== null && now - agent.lastSeenAt <= onlineWithinMs
    ? { kind: 'online', connections: null }
    : { kind: 'offline' };
}

export function statusWords(status: AgentStatus): string {
  switch (status.kind) {
    case 'suspended':
      return 'Suspended';
    case 'online':
      return status.connections === null
        ? 'Online'
        : `Online · ${status.connections} connection${status.connections === 1 ? '' : 's'}`;
    case 'offline':
      return 'Offline';
  }
}

/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 days ago"; "never" for null. */
export function seenWords(at: number | null, now: number): string {
  return at === null ? 'never' : relative(Math.min(at, now), now);
}

/** "3 of 10 left in room ops, task t1". */
export const budgetWords = (grant: AgentAccount['grants'][number]) =>
  `${Math.max(0, grant.maxMessages - grant.spent)} of ${grant.maxMessages} left`;

/** Who acted on an agent: their name, "the operator CLI", or "Operator …K7Qm2x" (decisions-web.md §46). */
export const byWords = (by: string, byName: string | null): string =>
  byName ?? (by === 'cli' ? 'the operator CLI' : by.startsWith('did:') ? unnamedOperator(by) : by);

/**
 * Who suspended an agent, when and why (decisions-server.md §83): "Suspended by Ana 3 minutes
 * ago: “flooding”"; after a resume, "Resumed by Ben just now; suspended by Ana 3 minutes ago:
 * “flooding”". Null when there is nothing of the kind to say.
 */
export function suspensionWords(agent: AgentAccount, now: number): string | null {
  const s = agent.suspended;
  if (s) return `Suspended by ${byWords(s.by, s.byName)} ${relative(Math.min(s.at, now), now)}: “${s.reason}”`;
  const last = agent.lastAction;
  if (last?.action !== 'agent.resume') return null;
  const resumed = `Resumed by ${byWords(last.by, last.byName)} ${relative(Math.min(last.at, now), now)}`;
  const l = last.lifted;
  return l
    ? `${resumed}; suspended by ${byWords(l.by, l.byName)} ${relative(Math.min(l.at, now), now)}: “${l.reason}”`
    : resumed;
}

const count = new Intl.NumberFormat('en');

/**
 * Every agent counted, whatever is loaded or searched: "10,000 agents · 1,204 online · 3
 * suspended". Online is left out when the broker cannot count connections (an external one).
 */
export function countWords(counts: AgentCounts): string {
  const parts = [`${count.format(counts.total)} agent${counts.total === 1 ? '' : 's'}`];
  if (counts.connected !== null) parts.push(`${count.format(counts.connected)} online`);
  parts.push(`${count.format(counts.suspended)} suspended`);
  return parts.join(' · ');
}
