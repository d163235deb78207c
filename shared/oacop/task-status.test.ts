import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import type { TaskUpdate } from './messages';
import {
  applyTaskUpdate,
  assignTask,
  canTransition,
  TASK_TRANSITIONS,
  type TaskPhase,
  type TaskState,
} from './task-status';
import { ALICE, assign, BOB, CHARLIE, update } from './test-support/fixtures';

const assigned = (): TaskState => unwrap(assignTask(undefined, { from: ALICE, worker: BOB, message: assign }));
const report = (task: TaskState, message: Partial<TaskUpdate>, from = BOB) =>
  applyTaskUpdate(task, {
    from,
    message: { type: 'TaskUpdate', threadId: task.threadId, status: 'IN_PROGRESS', ...message },
  });
const at = (status: TaskPhase, extra: Partial<TaskState> = {}): TaskState => ({ ...assigned(), status, ...extra });

describe('assignTask (OACoP §4.1)', () => {
  it('creates an ASSIGNED task at 0 percent for the worker', () => {
    expect(assigned()).toEqual({
      threadId: assign.threadId,
      manager: ALICE,
      worker: BOB,
      object: assign.object,
      deadline: assign.deadline,
      status: 'ASSIGNED',
      progress: 0,
    });
  });

  it('keeps a revision when the AssignTask carries one', () => {
    expect(
      unwrap(assignTask(undefined, { from: ALICE, worker: BOB, message: { ...assign, revision: 1 } })).revision,
    ).toBe(1);
  });

  it('lets the manager change object and deadline, keeping the status', () => {
    const working = at('IN_PROGRESS');
    const changed = unwrap(
      assignTask(working, { from: ALICE, worker: BOB, message: { ...assign, deadline: '2025-12-22T12:00:00Z' } }),
    );
    expect(changed).toMatchObject({ status: 'IN_PROGRESS', deadline: '2025-12-22T12:00:00Z' });
  });

  it.each([
    [
      'a sender field that is not the signer',
      undefined,
      { from: ALICE, worker: BOB, message: { ...assign, sender: CHARLIE } },
      'OACOP_NOT_AUTHORIZED',
    ],
    [
      "another task's message",
      'task',
      { from: ALICE, worker: BOB, message: { ...assign, threadId: 'urn:uuid:task-2' } },
      'OACOP_INVALID_MESSAGE',
    ],
    [
      'a re-assignment by someone else',
      'task',
      { from: CHARLIE, worker: BOB, message: assign },
      'OACOP_NOT_AUTHORIZED',
    ],
    ['a change of worker', 'task', { from: ALICE, worker: CHARLIE, message: assign }, 'OACOP_INVALID_TRANSITION'],
    [
      'a stale revision',
      'revised',
      { from: ALICE, worker: BOB, message: { ...assign, revision: 2 } },
      'OACOP_STALE_REVISION',
    ],
    ['a finished task', 'done', { from: ALICE, worker: BOB, message: assign }, 'OACOP_INVALID_TRANSITION'],
  ] as const)('refuses %s', (_what, which, event, code) => {
    const task =
      which === undefined
        ? undefined
        : which === 'task'
          ? assigned()
          : which === 'revised'
            ? at('ACCEPTED', { revision: 2 })
            : at('COMPLETED');
    expect(assignTask(task, event)).toMatchObject({ ok: false, error: { code } });
  });
});

describe('task statuses (OACoP §4.2)', () => {
  it('allows exactly the documented moves', () => {
    const allowed = Object.entries(TASK_TRANSITIONS).flatMap(([from, tos]) => tos.map((to) => `${from}→${to}`));
    expect(allowed).toEqual([
      'ASSIGNED→ACCEPTED',
      'ASSIGNED→DECLINED',
      'ACCEPTED→ACCEPTED',
      'ACCEPTED→IN_PROGRESS',
      'ACCEPTED→BLOCKED',
      'ACCEPTED→COMPLETED',
      'IN_PROGRESS→IN_PROGRESS',
      'IN_PROGRESS→BLOCKED',
      'IN_PROGRESS→COMPLETED',
      'BLOCKED→BLOCKED',
      'BLOCKED→IN_PROGRESS',
      'BLOCKED→COMPLETED',
    ]);
    expect(canTransition('ASSIGNED', 'IN_PROGRESS')).toBe(false);
    expect(canTransition('DECLINED', 'ACCEPTED')).toBe(false);
  });

  it('walks the §4.2 example and onward', () => {
    let task = unwrap(applyTaskUpdate(assigned(), { from: BOB, message: update }));
    expect(task).toMatchObject({ status: 'ACCEPTED', progress: 25, comment: 'Draft started.' });
    task = unwrap(report(task, { status: 'IN_PROGRESS', progress: 60 }));
    expect(task).toMatchObject({ status: 'IN_PROGRESS', progress: 60 });
    expect(task).not.toHaveProperty('comment');
    task = unwrap(report(task, { status: 'BLOCKED', comment: 'Waiting for data.' }));
    expect(task).toMatchObject({ status: 'BLOCKED', progress: 60, comment: 'Waiting for data.' });
    task = unwrap(report(task, { status: 'COMPLETED' }));
    expect(task).toMatchObject({ status: 'COMPLETED', progress: 100 });
  });

  it.each([
    ['ASSIGNED', 'IN_PROGRESS'],
    ['ASSIGNED', 'COMPLETED'],
    ['ACCEPTED', 'DECLINED'],
    ['COMPLETED', 'IN_PROGRESS'],
    ['DECLINED', 'ACCEPTED'],
  ] as const)('refuses %s → %s', (from, to) => {
    expect(report(at(from), { status: to })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_TRANSITION', details: { from, to, allowed: TASK_TRANSITIONS[from] } },
    });
  });

  it('refuses a COMPLETED report below 100 percent', () => {
    expect(report(at('IN_PROGRESS'), { status: 'COMPLETED', progress: 90 })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_MESSAGE' },
    });
    expect(report(at('IN_PROGRESS'), { status: 'COMPLETED', progress: 100 }).ok).toBe(true);
  });

  it('refuses reports from anyone but the worker, and for other tasks', () => {
    expect(report(at('ACCEPTED'), {}, ALICE)).toMatchObject({ ok: false, error: { code: 'OACOP_NOT_AUTHORIZED' } });
    expect(report(at('ACCEPTED'), { sender: CHARLIE })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_NOT_AUTHORIZED' },
    });
    expect(report(at('ACCEPTED'), { threadId: 'urn:uuid:other' })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_MESSAGE' },
    });
  });

  it('applies the revision rule once the task has a revision', () => {
    const revised = at('ACCEPTED', { revision: 3 });
    expect(report(revised, { revision: 3 })).toMatchObject({ ok: false, error: { code: 'OACOP_STALE_REVISION' } });
    expect(report(revised, {})).toMatchObject({ ok: false, error: { code: 'OACOP_STALE_REVISION' } });
    expect(unwrap(report(revised, { revision: 4 })).revision).toBe(4);
    expect(unwrap(report(at('ACCEPTED'), {}))).not.toHaveProperty('revision');
  });

  it('will not complete a task whose dependencies are open', () => {
    const task = at('IN_PROGRESS', { object: { ...assign.object, dependencies: ['urn:uuid:a', 'urn:uuid:b'] } });
    const tasksById = new Map([
      ['urn:uuid:a', { threadId: 'urn:uuid:a', status: 'COMPLETED', object: {} }],
      ['urn:uuid:b', { threadId: 'urn:uuid:b', status: 'IN_PROGRESS', object: {} }],
    ]);
    const completed = applyTaskUpdate(
      task,
      { from: BOB, message: { type: 'TaskUpdate', threadId: task.threadId, status: 'COMPLETED' } },
      tasksById,
    );
    expect(completed).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_TRANSITION', details: { blockedBy: ['urn:uuid:b'] } },
    });
    tasksById.set('urn:uuid:b', { threadId: 'urn:uuid:b', status: 'COMPLETED', object: {} });
    expect(
      applyTaskUpdate(
        task,
        { from: BOB, message: { type: 'TaskUpdate', threadId: task.threadId, status: 'COMPLETED' } },
        tasksById,
      ).ok,
    ).toBe(true);
  });
});
