// A task worker for OACoP §4 tasks: it accepts every task assigned to it, reports progress, and
// completes a task only when its dependencies are COMPLETED, reporting BLOCKED (with what blocks
// it) meanwhile (§2.2 `dependencies`). What it knows of other workers' tasks comes from `board`, a
// task projection fed by the relay's public stream (docs/decisions-oacop.md §A11). Its own view of
// each task is in the store, so the status rules hold across a restart.
import type { Envelope } from '@shared/agora/envelope';
import { carrierPayload, readCarrier, type CarriedMessage } from '@shared/oacop/carrier';
import type { Did, TaskUpdate } from '@shared/oacop/messages';
import { applyTaskUpdate, assignTask, type TaskState } from '@shared/oacop/task-status';
import type { TaskProjection } from '@shared/oacop/task-projection';
import type { AgoraClient } from '../agora/agora-client';
import type { AgentStateStore } from './agent-storage';

export interface TaskWorkerOptions {
  readonly client: AgoraClient;
  readonly store: AgentStateStore;
  /** Every task the relay has carried, as far as this process has seen. */
  readonly board: TaskProjection;
  readonly now: () => number;
  /** Waits between steps (DEMO_PACE); resolves false when stopped. */
  readonly pause: () => Promise<boolean>;
  readonly onError: (error: unknown) => void;
}

const key = (threadId: string) => `task:${threadId}`;
const PROGRESS_STEPS = [30, 70] as const;
/** A blocked task looks again this many times before it gives up until the next assignment. */
const MAX_WAITS = 120;

export class TaskWorker {
  readonly #working = new Set<string>();

  constructor(private readonly options: TaskWorkerOptions) {}

  get did(): Did {
    return this.options.client.identity.did;
  }

  async handle(envelope: Envelope): Promise<void> {
    if (envelope.recipient?.id !== this.did) return;
    const read = readCarrier(envelope);
    if (!read.ok || read.value.type !== 'AssignTask') return;
    const message = read.value;
    const known = (await this.options.store.getAgentState(this.did, key(message.threadId))) as TaskState | undefined;
    const next = assignTask(known, { from: envelope.sender.id, worker: this.did, message });
    if (!next.ok) {
      await this.#send(envelope.sender.id, {
        type: 'OACoPError',
        threadId: message.threadId,
        code: next.error.code as never,
        message: next.error.message,
        inReplyTo: envelope.id,
      });
      return;
    }
    await this.#save(next.value);
    if (!this.#working.has(message.threadId)) {
      this.#working.add(message.threadId);
      this.#work(message.threadId)
        .catch(this.options.onError)
        .finally(() => this.#working.delete(message.threadId));
    }
  }

  async #work(threadId: string): Promise<void> {
    if (!(await this.options.pause())) return;
    if (!(await this.#report(threadId, { status: 'ACCEPTED', progress: 0, comment: 'On it.' }))) return;
    for (const progress of PROGRESS_STEPS) {
      if (!(await this.options.pause())) return;
      if (!(await this.#report(threadId, { status: 'IN_PROGRESS', progress }))) return;
    }
    for (let wait = 0; wait < MAX_WAITS; wait++) {
      if (!(await this.options.pause())) return;
      const task = await this.#load(threadId);
      if (task === undefined) return;
      const blockedBy = this.#blockedBy(task);
      if (blockedBy.length === 0) {
        if (task.status === 'BLOCKED')
          await this.#report(threadId, { status: 'IN_PROGRESS', progress: task.progress, comment: 'Unblocked.' });
        await this.#report(threadId, { status: 'COMPLETED', progress: 100, comment: 'Done.' });
        return;
      }
      if (task.status !== 'BLOCKED')
        await this.#report(threadId, {
          status: 'BLOCKED',
          progress: task.progress,
          comment: `Waiting for ${blockedBy.join(', ')}.`,
        });
    }
  }

  /** Dependencies not COMPLETED, as far as the relay's stream has shown. */
  #blockedBy(task: TaskState): string[] {
    const board = this.options.board.board();
    const done = new Set(board.tasks.filter((t) => t.status === 'COMPLETED').map((t) => t.threadId));
    return (task.object.dependencies ?? []).filter((id) => !done.has(id));
  }

  /** Applies the update to its own view first (the same rules the manager applies), then sends it. */
  async #report(threadId: string, update: Omit<TaskUpdate, 'type' | 'threadId'>): Promise<boolean> {
    const task = await this.#load(threadId);
    if (task === undefined) return false;
    const message: TaskUpdate = { type: 'TaskUpdate', threadId, ...update };
    const next = applyTaskUpdate(task, { from: this.did, message });
    if (!next.ok) return false;
    await this.#save(next.value);
    await this.#send(task.manager, message);
    return true;
  }

  async #load(threadId: string): Promise<TaskState | undefined> {
    return (await this.options.store.getAgentState(this.did, key(threadId))) as TaskState | undefined;
  }

  async #save(task: TaskState): Promise<void> {
    await this.options.store.putAgentState(this.did, key(task.threadId), task, this.options.now());
  }

  async #send(to: Did, message: CarriedMessage): Promise<void> {
    const { client } = this.options;
    await client.post(
      client.sign(
        'REQUEST',
        carrierPayload(message, `oacop_${globalThis.crypto.randomUUID()}`) as never,
        message.threadId,
        to,
      ),
    );
  }
}
