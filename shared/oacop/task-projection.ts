// The console's read model of OACoP §4 tasks, a pure fold over carried messages in relay order:
// each AssignTask / TaskUpdate goes through task-status.ts exactly as the worker and manager apply
// it, refusals are logged with their code, and the board, the tree by `parentTaskId` and the
// blocked-by lists are derived (task-tree.ts). docs/decisions-oacop.md §A4.
import type { ProtocolError } from '../errors';
import type { CarrierEvent, LogEntry } from './scheduling-projection';
import { applyTaskUpdate, assignTask, type TaskPhase, type TaskState } from './task-status';
import { blockingDependencies, buildTaskTree, checkDependencies, type TaskNode } from './task-tree';

export interface TaskView extends TaskState {
  /** Dependencies that are not COMPLETED (unknown ones included): the task is blocked while any remain. */
  readonly blockedBy: readonly string[];
  readonly blocked: boolean;
  readonly assignedAt: number;
  readonly updatedAt: number;
  readonly lastError?: { readonly code: string; readonly message: string; readonly at: number };
}

export interface TaskBoard {
  readonly tasks: readonly TaskView[];
  /** Task ids by phase, in assignment order. */
  readonly columns: Readonly<Record<TaskPhase, readonly string[]>>;
  /** The forest by parentTaskId; `treeError` instead when parents form a cycle. */
  readonly tree: readonly TaskNode<TaskView>[];
  readonly treeError?: Pick<ProtocolError, 'code' | 'message'>;
  /** Set when dependencies form a cycle (such tasks never unblock). */
  readonly dependencyError?: Pick<ProtocolError, 'code' | 'message'>;
  readonly log: readonly LogEntry[];
}

interface Entry {
  task: TaskState;
  assignedAt: number;
  updatedAt: number;
  lastError?: TaskView['lastError'];
}

const PHASES: readonly TaskPhase[] = ['ASSIGNED', 'ACCEPTED', 'IN_PROGRESS', 'BLOCKED', 'COMPLETED', 'DECLINED'];

export class TaskProjection {
  readonly #tasks = new Map<string, Entry>();
  readonly #log: LogEntry[] = [];

  apply(event: CarrierEvent): void {
    const { message } = event;
    if (message.type === 'AssignTask') {
      const existing = this.#tasks.get(message.threadId);
      if (event.to === undefined)
        return this.#refuse(event, {
          code: 'OACOP_INVALID_MESSAGE',
          message: 'An AssignTask must be addressed to its worker.',
        });
      const next = assignTask(existing?.task, { from: event.from, worker: event.to, message });
      if (!next.ok) return this.#refuse(event, next.error);
      this.#tasks.set(message.threadId, {
        task: next.value,
        assignedAt: existing?.assignedAt ?? event.receivedAt,
        updatedAt: event.receivedAt,
      });
      this.#log.push(logEntry(event, 'applied'));
      return;
    }
    if (message.type === 'TaskUpdate') {
      const existing = this.#tasks.get(message.threadId);
      if (existing === undefined) return;
      const byId = new Map([...this.#tasks].map(([id, e]) => [id, e.task]));
      const next = applyTaskUpdate(existing.task, { from: event.from, message }, byId);
      if (!next.ok) return this.#refuse(event, next.error);
      existing.task = next.value;
      existing.updatedAt = event.receivedAt;
      this.#log.push(logEntry(event, 'applied'));
      return;
    }
    if (message.type === 'OACoPError') {
      const existing = this.#tasks.get(message.threadId);
      if (existing === undefined) return;
      existing.lastError = { code: message.code, message: message.message, at: event.receivedAt };
      this.#log.push(logEntry(event, 'noted'));
    }
  }

  board(): TaskBoard {
    const byId = new Map([...this.#tasks].map(([id, e]) => [id, e.task]));
    const tasks: TaskView[] = [...this.#tasks.values()].map((entry) => {
      const blockedBy = blockingDependencies(entry.task, byId);
      return {
        ...entry.task,
        blockedBy,
        blocked: blockedBy.length > 0 && entry.task.status !== 'COMPLETED' && entry.task.status !== 'DECLINED',
        assignedAt: entry.assignedAt,
        updatedAt: entry.updatedAt,
        ...(entry.lastError ? { lastError: entry.lastError } : {}),
      };
    });
    const columns = Object.fromEntries(
      PHASES.map((phase) => [phase, tasks.filter((t) => t.status === phase).map((t) => t.threadId)]),
    ) as Record<TaskPhase, string[]>;
    const tree = buildTaskTree(tasks);
    const dependencies = checkDependencies(tasks);
    return {
      tasks,
      columns,
      tree: tree.ok ? tree.value : [],
      ...(tree.ok ? {} : { treeError: { code: tree.error.code, message: tree.error.message } }),
      ...(dependencies.ok
        ? {}
        : { dependencyError: { code: dependencies.error.code, message: dependencies.error.message } }),
      log: this.#log,
    };
  }

  #refuse(event: CarrierEvent, error: Pick<ProtocolError, 'code' | 'message'>): void {
    this.#log.push(logEntry(event, 'refused', error));
  }
}

function logEntry(
  event: CarrierEvent,
  outcome: LogEntry['outcome'],
  error?: Pick<ProtocolError, 'code' | 'message'>,
): LogEntry {
  const revision = 'revision' in event.message ? event.message.revision : undefined;
  return {
    seq: event.seq,
    envelopeId: event.envelopeId,
    at: event.receivedAt,
    from: event.from,
    to: event.to,
    type: event.message.type,
    ...(revision === undefined ? {} : { revision }),
    outcome,
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
  };
}
