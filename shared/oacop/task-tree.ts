// OACoP §2.2 task structure: `parentTaskId` builds a tree, `dependencies` block. A task's own id is
// the threadId of its AssignTask (§4.1; docs/decisions-oacop.md, "Task ids").
import { fail, ok, type Result } from '../errors';
import { OacopLocalErrorCode } from './error-codes';

export interface TaskLike {
  readonly threadId: string;
  readonly status: string;
  readonly object: { readonly parentTaskId?: string; readonly dependencies?: readonly string[] };
}

/** Dependencies not COMPLETED; one unknown here counts as not completed. */
export function blockingDependencies(task: TaskLike, tasksById: ReadonlyMap<string, TaskLike>): string[] {
  return (task.object.dependencies ?? []).filter((id) => tasksById.get(id)?.status !== 'COMPLETED');
}

/** A task is blocked while any dependency is not COMPLETED. */
export const isBlocked = (task: TaskLike, tasksById: ReadonlyMap<string, TaskLike>): boolean =>
  blockingDependencies(task, tasksById).length > 0;

export interface TaskNode<T extends TaskLike> {
  readonly task: T;
  readonly children: readonly TaskNode<T>[];
}

/**
 * The forest by `parentTaskId`, children in input order. A task whose parent is not among `tasks`
 * is a root. Duplicate ids are `OACOP_INVALID_MESSAGE`; a parent cycle is `OACOP_TASK_CYCLE`.
 */
export function buildTaskTree<T extends TaskLike>(tasks: readonly T[]): Result<TaskNode<T>[]> {
  const byId = new Map<string, T>();
  for (const task of tasks) {
    if (byId.has(task.threadId))
      return fail(OacopLocalErrorCode.INVALID_MESSAGE, `Task ${task.threadId} appears twice.`);
    byId.set(task.threadId, task);
  }
  const cycle = findCycle(tasks, (task) => {
    const parent = task.object.parentTaskId;
    return parent === undefined || !byId.has(parent) ? [] : [parent];
  });
  if (cycle !== undefined)
    return fail(OacopLocalErrorCode.TASK_CYCLE, `Tasks form a parent cycle: ${cycle.join(' → ')}.`, { cycle });

  const children = new Map<string, T[]>();
  const roots: T[] = [];
  for (const task of tasks) {
    const parent = task.object.parentTaskId;
    if (parent !== undefined && byId.has(parent)) children.set(parent, [...(children.get(parent) ?? []), task]);
    else roots.push(task);
  }
  const node = (task: T): TaskNode<T> => ({ task, children: (children.get(task.threadId) ?? []).map(node) });
  return ok(roots.map(node));
}

/** `OACOP_TASK_CYCLE` when `dependencies` among `tasks` form a cycle (such tasks never unblock). */
export function checkDependencies(tasks: readonly TaskLike[]): Result<void> {
  const known = new Set(tasks.map((task) => task.threadId));
  const cycle = findCycle(tasks, (task) => (task.object.dependencies ?? []).filter((id) => known.has(id)));
  if (cycle === undefined) return ok(undefined);
  return fail(OacopLocalErrorCode.TASK_CYCLE, `Tasks depend on each other in a cycle: ${cycle.join(' → ')}.`, {
    cycle,
  });
}

/** The first cycle found by depth-first search, as ids ending where they start, or undefined. */
function findCycle(tasks: readonly TaskLike[], next: (task: TaskLike) => readonly string[]): string[] | undefined {
  const byId = new Map(tasks.map((task) => [task.threadId, task]));
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (id: string): string[] | undefined => {
    if (onPath.has(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id)) return undefined;
    path.push(id);
    onPath.add(id);
    const task = byId.get(id);
    for (const target of task === undefined ? [] : next(task)) {
      const found = visit(target);
      if (found !== undefined) return found;
    }
    path.pop();
    onPath.delete(id);
    done.add(id);
    return undefined;
  };
  for (const task of tasks) {
    const found = visit(task.threadId);
    if (found !== undefined) return found;
  }
  return undefined;
}
