// OACoP §4 task delegation as a pure state machine. §4.2 lists the worker's statuses but not their
// order; the legal moves below are this project's reading (docs/decisions-oacop.md, "Task
// statuses"): accept or decline first, then work, block and complete; DECLINED and COMPLETED end it.
import { fail, ok, type Result } from '../errors';
import { OacopLocalErrorCode } from './error-codes';
import type { AssignTask, CollaborationObject, Did, TaskStatus, TaskUpdate } from './messages';
import { applyOptionalRevision } from './revision';
import { blockingDependencies, type TaskLike } from './task-tree';

/** `ASSIGNED` is the project's name for "sent, no answer yet"; the rest are §4.2's statuses. */
export type TaskPhase = 'ASSIGNED' | TaskStatus;

export const TASK_TRANSITIONS: Readonly<Record<TaskPhase, readonly TaskStatus[]>> = {
  ASSIGNED: ['ACCEPTED', 'DECLINED'],
  // Repeating a working status is how progress and comments are reported.
  ACCEPTED: ['ACCEPTED', 'IN_PROGRESS', 'BLOCKED', 'COMPLETED'],
  IN_PROGRESS: ['IN_PROGRESS', 'BLOCKED', 'COMPLETED'],
  BLOCKED: ['BLOCKED', 'IN_PROGRESS', 'COMPLETED'],
  COMPLETED: [],
  DECLINED: [],
};

export const canTransition = (from: TaskPhase, to: TaskStatus): boolean => TASK_TRANSITIONS[from].includes(to);

export interface TaskState extends TaskLike {
  readonly threadId: string;
  readonly manager: Did;
  readonly worker: Did;
  readonly object: CollaborationObject;
  readonly deadline: string;
  readonly status: TaskPhase;
  /** Percent, 0–100 (§4.2). */
  readonly progress: number;
  readonly comment?: string;
  readonly revision?: number;
}

/**
 * A task from its AssignTask (`task` undefined) or a manager's re-assignment of it (new object or
 * deadline, same status). `from` signed the envelope; `worker` is the addressee of that envelope,
 * which the message itself does not name (§4.1).
 */
export function assignTask(
  task: TaskState | undefined,
  event: { readonly from: Did; readonly worker: Did; readonly message: AssignTask },
): Result<TaskState> {
  const { from, worker, message } = event;
  if (message.sender !== undefined && message.sender !== from) {
    return fail(
      OacopLocalErrorCode.NOT_AUTHORIZED,
      `The message names sender ${message.sender} but was signed by ${from}.`,
    );
  }
  if (task === undefined) {
    return ok({
      threadId: message.threadId,
      manager: from,
      worker,
      object: message.object,
      deadline: message.deadline,
      status: 'ASSIGNED',
      progress: 0,
      ...(message.revision === undefined ? {} : { revision: message.revision }),
    });
  }
  if (message.threadId !== task.threadId)
    return fail(OacopLocalErrorCode.INVALID_MESSAGE, 'The message belongs to another task.');
  if (from !== task.manager) return fail(OacopLocalErrorCode.NOT_AUTHORIZED, 'Only the manager re-assigns a task.');
  if (worker !== task.worker)
    return fail(OacopLocalErrorCode.INVALID_TRANSITION, 'A task cannot change worker; assign a new task.');
  const revision = applyOptionalRevision(task.revision, message.revision);
  if (!revision.ok) return revision;
  if (TASK_TRANSITIONS[task.status].length === 0)
    return fail(OacopLocalErrorCode.INVALID_TRANSITION, `The task is ${task.status}.`);
  return ok({ ...task, object: message.object, deadline: message.deadline, ...revisionField(revision.value) });
}

/**
 * The worker's TaskUpdate (§4.2). With `tasksById`, a task whose dependencies are not all
 * COMPLETED cannot be COMPLETED itself (§2.2 `dependencies`).
 */
export function applyTaskUpdate(
  task: TaskState,
  event: { readonly from: Did; readonly message: TaskUpdate },
  tasksById?: ReadonlyMap<string, TaskLike>,
): Result<TaskState> {
  const { from, message } = event;
  if (message.threadId !== task.threadId)
    return fail(OacopLocalErrorCode.INVALID_MESSAGE, 'The update belongs to another task.');
  if (from !== task.worker || (message.sender !== undefined && message.sender !== from)) {
    return fail(OacopLocalErrorCode.NOT_AUTHORIZED, "Only the task's worker reports on it (OACoP §4.2).");
  }
  const revision = applyOptionalRevision(task.revision, message.revision);
  if (!revision.ok) return revision;
  if (!canTransition(task.status, message.status)) {
    return fail(OacopLocalErrorCode.INVALID_TRANSITION, `A task cannot go from ${task.status} to ${message.status}.`, {
      from: task.status,
      to: message.status,
      allowed: TASK_TRANSITIONS[task.status],
    });
  }
  if (message.status === 'COMPLETED') {
    if (message.progress !== undefined && message.progress !== 100) {
      return fail(OacopLocalErrorCode.INVALID_MESSAGE, 'A COMPLETED task is 100 percent done.');
    }
    const blockedBy = tasksById === undefined ? [] : blockingDependencies(task, tasksById);
    if (blockedBy.length > 0) {
      return fail(OacopLocalErrorCode.INVALID_TRANSITION, 'The task waits for dependencies that are not COMPLETED.', {
        blockedBy,
      });
    }
  }
  const progress = message.status === 'COMPLETED' ? 100 : (message.progress ?? task.progress);
  const { comment: _previous, ...rest } = task;
  return ok({
    ...rest,
    status: message.status,
    progress,
    ...(message.comment === undefined ? {} : { comment: message.comment }),
    ...revisionField(revision.value),
  });
}

const revisionField = (revision: number | undefined) => (revision === undefined ? {} : { revision });
