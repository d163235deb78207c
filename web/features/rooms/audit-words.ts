// Audit entries in words: who, when, what, and where in the timeline.
import type { AuditEntry } from '@web/lib/api/rooms-audit';
import type { Retention } from '@shared/contract/rooms';
import { retentionInWords } from './retention-words';
import { absolute } from '@web/lib/time-words';

const retentionOf = (v: unknown): Retention | null => {
  const r = v as { maxMessages?: unknown; maxAgeDays?: unknown } | null;
  if (!r || typeof r !== 'object') return null;
  return {
    maxMessages: typeof r.maxMessages === 'number' ? r.maxMessages : null,
    maxAgeDays: typeof r.maxAgeDays === 'number' ? r.maxAgeDays : null,
  };
};

const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);

/** What the facilitator did, in one sentence. Tasks by their goals (decisions-web.md §33), ids never. */
export function auditInWords(
  e: Pick<AuditEntry, 'action' | 'details'>,
  /** Names a task by its goal's first words; without it, or without a goal, a task is "a task". */
  taskWords?: (taskId: string) => string | undefined,
  /** The zone a grant's end is written in; UTC unless given. */
  zone = 'UTC',
): string {
  const d = e.details;
  const agent = str(d.agent_id) ?? str(d.agentId) ?? 'an agent';
  const taskId = str(d.task_id) ?? str(d.taskId);
  const goal = taskId ? taskWords?.(taskId) : undefined;
  const task = goal ? `“${goal}”` : 'a task';
  const tasks = (ids: readonly string[]) => ids.map((id) => taskWords?.(id)).map((g) => (g ? `“${g}”` : 'a task'));
  switch (e.action) {
    case 'room.create':
      return `Created the room “${str(d.name) ?? '?'}” (${str(d.moderation) ?? 'auto'} moderation)`;
    case 'room.moderation':
      return `Switched moderation from ${str(d.from) ?? '?'} to ${str(d.to) ?? '?'}`;
    case 'room.retention':
      return `Set history retention: ${retentionInWords(retentionOf(d.to)).replace(/^Keeps/, 'keep')}`;
    case 'room.task':
      return str(d.goal) ? `Assigned ${agent} a task: “${str(d.goal)}”` : `Assigned ${task} to ${agent}`;
    case 'room.mic_grant':
      return `Granted the mic to ${agent} for ${task}: ${str(d.max_messages) ?? '?'} messages, until ${typeof d.expires_at === 'number' ? absolute(d.expires_at * 1000, zone) : '?'}`;
    case 'room.mic_revoke':
      return `Revoked the mic from ${agent} for ${task}${str(d.reason) ? ` (${str(d.reason)})` : ''}`;
    case 'room.say':
      return 'Spoke in the room';
    case 'review.approve':
      return `Approved ${agent}’s candidate for ${task}`;
    case 'review.reject':
      return `Rejected ${agent}’s candidate for ${task}: “${str(d.reason) ?? ''}”`;
    // The agents service's own actions (decisions-server.md §62); a room sees a suspension's.
    case 'agent.suspend': {
      const ended = Array.isArray(d.grantsEnded) ? d.grantsEnded.filter((t) => typeof t === 'string') : [];
      return `Suspended ${agent}: “${str(d.reason) ?? ''}”${ended.length ? `; ended its grant for ${tasks(ended).join(', ')}` : ''}`;
    }
    case 'agent.resume':
      return `Resumed ${agent}`;
    case 'agent.disconnect':
      return `Disconnected ${agent}`;
    default:
      return e.action.replace(/^room\./, '').replaceAll('_', ' ');
  }
}

/** The timeline permalink's `m`: the stored cursor when the action has one, else the message id. */
export function auditTarget(e: Pick<AuditEntry, 'messageId' | 'details'>): string | null {
  const cursor = e.details.cursor;
  if (typeof cursor === 'number' || (typeof cursor === 'string' && cursor !== '')) return String(cursor);
  return e.messageId;
}

export const permalink = (roomId: string, m: string) =>
  `/rooms/${encodeURIComponent(roomId)}?m=${encodeURIComponent(m)}`;
