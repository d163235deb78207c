import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import {
  blockingDependencies,
  buildTaskTree,
  checkDependencies,
  isBlocked,
  type TaskLike,
  type TaskNode,
} from './task-tree';

const task = (threadId: string, object: TaskLike['object'] = {}, status = 'ACCEPTED'): TaskLike => ({
  threadId,
  status,
  object,
});
const ids = (nodes: readonly TaskNode<TaskLike>[]): unknown =>
  nodes.map((n) => (n.children.length === 0 ? n.task.threadId : [n.task.threadId, ids(n.children)]));

describe('isBlocked (OACoP §2.2 dependencies)', () => {
  const done = task('urn:done', {}, 'COMPLETED');
  const open = task('urn:open', {}, 'IN_PROGRESS');
  const byId = new Map([done, open].map((t) => [t.threadId, t]));

  it('blocks while any dependency is not COMPLETED, unknown ones included', () => {
    expect(isBlocked(task('urn:t', { dependencies: ['urn:done'] }), byId)).toBe(false);
    expect(isBlocked(task('urn:t'), byId)).toBe(false);
    expect(isBlocked(task('urn:t', { dependencies: ['urn:done', 'urn:open'] }), byId)).toBe(true);
    expect(
      blockingDependencies(task('urn:t', { dependencies: ['urn:done', 'urn:missing', 'urn:open'] }), byId),
    ).toEqual(['urn:missing', 'urn:open']);
  });
});

describe('buildTaskTree (OACoP §2.2 parentTaskId)', () => {
  it('nests children under parents in input order; unknown parents make roots', () => {
    const tree = unwrap(
      buildTaskTree([
        task('urn:report', { parentTaskId: 'urn:alpha' }),
        task('urn:alpha'),
        task('urn:draft', { parentTaskId: 'urn:report' }),
        task('urn:slides', { parentTaskId: 'urn:alpha' }),
        task('urn:orphan', { parentTaskId: 'urn:elsewhere' }),
      ]),
    );
    expect(ids(tree)).toEqual([['urn:alpha', [['urn:report', ['urn:draft']], 'urn:slides']], 'urn:orphan']);
  });

  it('refuses a parent cycle with OACOP_TASK_CYCLE naming it', () => {
    const result = buildTaskTree([
      task('urn:a', { parentTaskId: 'urn:c' }),
      task('urn:b', { parentTaskId: 'urn:a' }),
      task('urn:c', { parentTaskId: 'urn:b' }),
    ]);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'OACOP_TASK_CYCLE', details: { cycle: ['urn:a', 'urn:c', 'urn:b', 'urn:a'] } },
    });
    expect(buildTaskTree([task('urn:a', { parentTaskId: 'urn:a' })])).toMatchObject({
      ok: false,
      error: { code: 'OACOP_TASK_CYCLE' },
    });
  });

  it('refuses a repeated id', () => {
    expect(buildTaskTree([task('urn:a'), task('urn:a')])).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_MESSAGE' },
    });
  });
});

describe('checkDependencies', () => {
  it('accepts a DAG and ignores unknown dependencies', () => {
    expect(
      checkDependencies([
        task('urn:a', { dependencies: ['urn:b', 'urn:x'] }),
        task('urn:b', { dependencies: ['urn:c'] }),
        task('urn:c'),
        task('urn:d', { dependencies: ['urn:c'] }),
      ]).ok,
    ).toBe(true);
  });

  it('refuses a dependency cycle', () => {
    expect(
      checkDependencies([task('urn:a', { dependencies: ['urn:b'] }), task('urn:b', { dependencies: ['urn:a'] })]),
    ).toMatchObject({
      ok: false,
      error: { code: 'OACOP_TASK_CYCLE', details: { cycle: ['urn:a', 'urn:b', 'urn:a'] } },
    });
  });
});
