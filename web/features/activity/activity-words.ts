// The activity log in words: what a person or the CLI did to an agent, an
// operator or a review queue, in one sentence. Room actions (tasks, grants, moderation) are worded
// by the rooms feature and handed in by web/app. Pure, so tested on its own.
import type { ActivityEntry } from '@web/lib/api/activity';
import { unnamedOperator } from '@shared/contract/operator-name';
import { absolute } from '@web/lib/time-words';

const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
const count = (n: unknown, one: string, many: string) => {
  const k = typeof n === 'number' ? n : 0;
  return `${k} ${k === 1 ? one : many}`;
};

/** Who acted, as people read it: their name, "the operator CLI", or "Operator …K7Qm2x" (decisions-web.md §46). */
export function actorInWords(e: Pick<ActivityEntry, 'actorDid' | 'actorName'>): string {
  if (e.actorName) return e.actorName;
  if (e.actorDid === 'cli') return 'The operator CLI';
  return e.actorDid.startsWith('did:') ? unnamedOperator(e.actorDid) : e.actorDid;
}

const roleWord = (v: unknown) => (v === 'observer' ? 'an observer' : 'a facilitator');

/** One sentence for an agent, operator or review-settle action; `other` words everything else. */
export function activityInWords(
  e: Pick<ActivityEntry, 'action' | 'details' | 'target' | 'targetName'>,
  other: (e: Pick<ActivityEntry, 'action' | 'details'>) => string,
  zone = 'UTC',
): string {
  const d = e.details;
  const agent = str(d.agentId) ?? str(d.agent_id) ?? 'an agent';
  const operator = e.targetName ?? (e.target ? unnamedOperator(e.target) : 'an operator');
  switch (e.action) {
    case 'agent.create':
      return `Created a credential for ${agent}`;
    case 'agent.rotate':
      return `Issued ${agent} a new password`;
    case 'agent.remove':
      return `Removed ${agent}’s credential`;
    case 'agent.disconnect':
      return `Disconnected ${agent}`;
    case 'agent.resume': {
      const lifted = d.lifted as { reason?: unknown } | undefined;
      return `Resumed ${agent}${str(lifted?.reason) ? `, suspended for “${str(lifted?.reason)}”` : ''}`;
    }
    case 'agent.import': {
      const name = str(d.name) ?? 'an A2A agent';
      return d.refreshed === true
        ? `Fetched the Agent Card of the imported A2A agent “${name}” again`
        : `Imported the A2A agent “${name}” from its Agent Card${str(d.url) ? ` at ${str(d.url)}` : ''}`;
    }
    case 'agent.import_remove':
      return `Removed the imported A2A agent “${str(d.name) ?? 'an A2A agent'}” from the directory`;
    case 'operator.invite':
      return `Invited ${roleWord(d.role)} with a one-time link${typeof d.expiresAt === 'number' ? `, valid until ${absolute(d.expiresAt, zone)}` : ''}`;
    case 'operator.invite_revoke':
      return 'Withdrew an unused invitation link';
    case 'operator.enroll':
    case 'operator_enrolled':
      return `Enrolled as ${roleWord(d.role)}${str(d.name) ? ` under the name “${str(d.name)}”` : ''}`;
    case 'operator.role':
      return `Made ${operator} ${roleWord(d.to)} (was ${str(d.from) ?? '?'})`;
    case 'operator.remove':
      return `Removed ${operator} (${str(d.role) ?? 'operator'}) from the console`;
    case 'operator.name':
      return `Changed their name to “${str(d.to) ?? ''}”`;
    case 'review.settle': {
      const n = count(d.decided, 'waiting candidate', 'waiting candidates');
      if (d.decision === 'approve')
        return `Approved ${n} at once${typeof d.refused === 'number' && d.refused > 0 ? ` (${d.refused} refused by their grant)` : ''}`;
      if (d.decision === 'reject') return `Rejected ${n} at once: “${str(d.reason) ?? ''}”`;
      return `Released ${n} undecided to their agents`;
    }
    default:
      return other(e);
  }
}

/** Where an entry happened, for the log's filters: a room, or the console as a whole. */
export const KIND_WORDS = {
  agent: 'Agents',
  operator: 'Operators',
  room: 'Room actions',
  review: 'Review decisions',
} as const;
