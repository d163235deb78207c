// The AssignTask the form sends (OACoP §4.1): pure, so the rules are tested. parentTaskId and
// dependencies are other tasks' threadIds; the deadline is UTC.
import { fail, ok, type Result } from '@shared/errors';
import type { AssignTask } from '@shared/oacop/messages';

export interface TaskDraft {
  readonly threadId: string;
  readonly title: string;
  readonly description?: string;
  /** A `datetime-local` value read as UTC, or an ISO string. */
  readonly deadline: string;
  readonly parentTaskId?: string;
  readonly dependencies: readonly string[];
}

export function buildAssignTask(d: TaskDraft): Result<AssignTask> {
  const title = d.title.trim();
  if (!title) return fail('INVALID_INPUT', 'Give the task a title.');
  const at = Date.parse(/Z$|[+-]\d\d:\d\d$/.test(d.deadline) ? d.deadline : `${d.deadline}Z`);
  if (!Number.isFinite(at)) return fail('INVALID_INPUT', 'Pick a deadline.');
  const deps = [...new Set(d.dependencies)];
  if (deps.includes(d.threadId) || d.parentTaskId === d.threadId)
    return fail('INVALID_INPUT', 'A task cannot depend on itself.');
  return ok({
    type: 'AssignTask',
    threadId: d.threadId,
    object: {
      type: 'Task',
      title,
      ...(d.description?.trim() ? { description: d.description.trim() } : {}),
      ...(d.parentTaskId ? { parentTaskId: d.parentTaskId } : {}),
      ...(deps.length > 0 ? { dependencies: deps } : {}),
    },
    deadline: new Date(at).toISOString().replace('.000Z', 'Z'),
  } as AssignTask);
}
