// "Overdue" on the board (decisions-web.md §26): a deadline that passed matters only while the
// task is still open.
import type { TaskView } from '@shared/contract/console';

/** Statuses after which a deadline no longer matters. */
const DONE = new Set(['COMPLETED', 'DECLINED']);

/** A task still open whose deadline passed (epoch ms `now`). */
export function isOverdue(task: Pick<TaskView, 'status' | 'deadline'>, now: number): boolean {
  const due = Date.parse(task.deadline);
  return !DONE.has(task.status) && Number.isFinite(due) && due < now;
}
