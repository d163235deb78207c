// The AssignTask the form sends (OACoP §4.1): pure, so the rules are tested. parentTaskId and
// dependencies are other tasks' threadIds; the deadline is UTC.
import { fail, ok, type Result } from '@shared/errors';
import type { AssignTask } from '@shared/oacop/messages';
import { overLimitProblem } from '@shared/contract/text-limits';

export interface TaskDraft {
  readonly threadId: string;
  readonly title: string;
  readonly description?: string;
  /** A `datetime-local` value read as UTC, or an ISO string. */
  readonly deadline: string;
  readonly parentTaskId?: string;
  readonly dependencies: readonly string[];
  /** Epoch ms; when given, a deadline at or before it is refused (decisions-web.md §26). */
  readonly now?: number;
}

export function buildAssignTask(d: TaskDraft): Result<AssignTask> {
  const title = d.title.trim();
  if (!title) return fail('INVALID_INPUT', 'Give the task a title.');
  const long = overLimitProblem('line', title);
  if (long) return fail('INVALID_INPUT', `The title ${long}.`);
  const description = d.description?.trim() ?? '';
  const longer = overLimitProblem('message', description);
  if (longer) return fail('INVALID_INPUT', `The description ${longer}.`);
  const at = Date.parse(/Z$|[+-]\d\d:\d\d$/.test(d.deadline) ? d.deadline : `${d.deadline}Z`);
  if (!Number.isFinite(at)) return fail('INVALID_INPUT', 'Pick a deadline.');
  if (d.now !== undefined && at <= d.now)
    return fail('INVALID_INPUT', 'The deadline is in the past: pick a time after now (UTC).');
  const deps = [...new Set(d.dependencies)];
  if (deps.includes(d.threadId) || d.parentTaskId === d.threadId)
    return fail('INVALID_INPUT', 'A task cannot depend on itself.');
  return ok({
    type: 'AssignTask',
    threadId: d.threadId,
    object: {
      type: 'Task',
      title,
      ...(description ? { description } : {}),
      ...(d.parentTaskId ? { parentTaskId: d.parentTaskId } : {}),
      ...(deps.length > 0 ? { dependencies: deps } : {}),
    },
    deadline: new Date(at).toISOString().replace('.000Z', 'Z'),
  } as AssignTask);
}
