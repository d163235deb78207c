// The goals of a room's tasks, read from its history (decisions-web.md §33): AOR §5.2 `task`
// envelopes sent to agents' inboxes. Screens and inbox items name a task by its goal; the task id
// stays in the inspector. Reads at most TASK_GOALS_LIMIT envelopes through the history's
// (room, type, cursor) index, however long the history grows.
import type { Store } from '../store/store';

/** The newest task envelopes read per room. */
export const TASK_GOALS_LIMIT = 500;
/** A goal kept for naming: the operator's first 500 characters. */
const MAX_GOAL_CHARS = 500;

export interface TaskGoal {
  readonly taskId: string;
  readonly agentId: string | null;
  readonly goal: string;
  /** When the server received the task (epoch ms). */
  readonly assignedAt: number;
}

const decoder = new TextDecoder();

function goalOf(payload: Uint8Array): { taskId: string; goal: string } | undefined {
  try {
    const envelope = JSON.parse(decoder.decode(payload)) as { type?: unknown; payload?: Record<string, unknown> };
    const p = envelope.payload;
    if (envelope.type !== 'task' || !p || typeof p.task_id !== 'string' || typeof p.goal !== 'string') return undefined;
    const goal = p.goal.trim();
    return goal ? { taskId: p.task_id, goal: [...goal].slice(0, MAX_GOAL_CHARS).join('') } : undefined;
  } catch {
    return undefined;
  }
}

/** The room's tasks, newest first, one per task id (a re-sent task's newest goal wins). */
export async function readTaskGoals(store: Store, roomId: string, limit = TASK_GOALS_LIMIT): Promise<TaskGoal[]> {
  const page = await store.rooms.listMessages({ roomId, limit, types: ['task'], topicKinds: ['inbox'] });
  const seen = new Set<string>();
  const goals: TaskGoal[] = [];
  for (let i = page.messages.length - 1; i >= 0; i--) {
    const m = page.messages[i]!;
    const read = goalOf(m.payload);
    if (!read || seen.has(read.taskId)) continue;
    seen.add(read.taskId);
    goals.push({ ...read, agentId: m.topicAgentId, assignedAt: m.receivedAt });
  }
  return goals;
}
