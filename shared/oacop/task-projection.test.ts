import { describe, expect, it } from 'vitest';
import type { CarriedMessage } from './carrier';
import type { CarrierEvent } from './scheduling-projection';
import { TaskProjection } from './task-projection';
import { ALICE, assign, BOB, CHARLIE } from './test-support/fixtures';

let seq = 0;
const event = (from: string, to: string | undefined, message: CarriedMessage): CarrierEvent => ({
  seq: ++seq,
  envelopeId: `e${seq}`,
  from,
  to,
  receivedAt: 5000 + seq,
  message,
});
const A = 'urn:uuid:task-a';
const B = 'urn:uuid:task-b';

describe('TaskProjection (the task board read model, decisions-oacop.md §A4)', () => {
  it('blocks a task while a dependency is open and unblocks it when the dependency completes', () => {
    const p = new TaskProjection();
    p.apply(event(ALICE, BOB, { ...assign, threadId: A, object: { type: 'Task', title: 'A' } }));
    p.apply(
      event(ALICE, BOB, {
        ...assign,
        threadId: B,
        object: { type: 'Task', title: 'B', dependencies: [A, 'urn:uuid:unknown'] },
      }),
    );
    expect(p.board().tasks.find((t) => t.threadId === B)).toMatchObject({
      blocked: true,
      blockedBy: [A, 'urn:uuid:unknown'],
      worker: BOB,
      manager: ALICE,
      status: 'ASSIGNED',
    });
    p.apply(event(BOB, ALICE, { type: 'TaskUpdate', threadId: A, status: 'ACCEPTED' }));
    p.apply(event(BOB, ALICE, { type: 'TaskUpdate', threadId: A, status: 'COMPLETED' }));
    expect(p.board().tasks.find((t) => t.threadId === B)!.blockedBy).toEqual(['urn:uuid:unknown']);
    expect(p.board().columns).toMatchObject({ COMPLETED: [A], ASSIGNED: [B] });
  });

  it('refuses, and logs, an unaddressed AssignTask, an update not from the worker, a re-assignment by someone else; notes errors', () => {
    const p = new TaskProjection();
    p.apply(event(ALICE, undefined, { ...assign, threadId: A }));
    expect(p.board().tasks).toEqual([]);
    p.apply(event(ALICE, BOB, { ...assign, threadId: A }));
    p.apply(event(CHARLIE, BOB, { ...assign, threadId: A, deadline: '2025-12-30T12:00:00Z' }));
    p.apply(event(CHARLIE, ALICE, { type: 'TaskUpdate', threadId: A, status: 'ACCEPTED' }));
    p.apply(event(BOB, ALICE, { type: 'TaskUpdate', threadId: 'urn:uuid:never-assigned', status: 'ACCEPTED' }));
    p.apply(
      event(BOB, ALICE, {
        type: 'OACoPError',
        threadId: A,
        code: 'OACOP_CONFLICT',
        message: 'busy then',
        inReplyTo: 'e2',
      }),
    );
    const board = p.board();
    expect(board.log.map((e) => [e.outcome, e.error?.code])).toEqual([
      ['refused', 'OACOP_INVALID_MESSAGE'],
      ['applied', undefined],
      ['refused', 'OACOP_NOT_AUTHORIZED'],
      ['refused', 'OACOP_NOT_AUTHORIZED'],
      ['noted', undefined],
    ]);
    expect(board.tasks[0]).toMatchObject({
      status: 'ASSIGNED',
      deadline: assign.deadline,
      lastError: { code: 'OACOP_CONFLICT' },
    });
  });

  it('reports parent and dependency cycles instead of throwing', () => {
    const p = new TaskProjection();
    p.apply(
      event(ALICE, BOB, {
        ...assign,
        threadId: A,
        object: { type: 'Task', title: 'A', parentTaskId: B, dependencies: [B] },
      }),
    );
    p.apply(
      event(ALICE, BOB, {
        ...assign,
        threadId: B,
        object: { type: 'Task', title: 'B', parentTaskId: A, dependencies: [A] },
      }),
    );
    const board = p.board();
    expect(board.tree).toEqual([]);
    expect(board.treeError?.code).toBe('OACOP_TASK_CYCLE');
    expect(board.dependencyError?.code).toBe('OACOP_TASK_CYCLE');
  });
});
