import { describe, expect, it } from 'vitest';
import { validateMessage } from '@shared/oacop/validate-message';
import { buildAssignTask } from './assign-task';

describe('buildAssignTask', () => {
  it('builds a §4.1 AssignTask with parent, dependencies and a UTC deadline that validates', () => {
    const built = buildAssignTask({
      threadId: 'urn:uuid:b',
      title: 'Report',
      deadline: '2026-11-29T09:56',
      parentTaskId: 'urn:uuid:a',
      dependencies: ['urn:uuid:a', 'urn:uuid:a'],
    });
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.value).toEqual({
      type: 'AssignTask',
      threadId: 'urn:uuid:b',
      object: { type: 'Task', title: 'Report', parentTaskId: 'urn:uuid:a', dependencies: ['urn:uuid:a'] },
      deadline: '2026-11-29T09:56:00Z',
    });
    expect(validateMessage(built.value).ok).toBe(true);
  });

  it('refuses a task that depends on itself, or no title', () => {
    expect(
      buildAssignTask({
        threadId: 'urn:uuid:b',
        title: 'x',
        deadline: '2026-11-29T09:56',
        dependencies: ['urn:uuid:b'],
      }).ok,
    ).toBe(false);
    expect(
      buildAssignTask({ threadId: 'urn:uuid:b', title: ' ', deadline: '2026-11-29T09:56', dependencies: [] }).ok,
    ).toBe(false);
    expect(buildAssignTask({ threadId: 'urn:uuid:b', title: 'x', deadline: '', dependencies: [] }).ok).toBe(false);
  });
});

describe('buildAssignTask: limits and dates', () => {
  const draft = { threadId: 'urn:uuid:c', title: 'Report', deadline: '2026-11-29T09:56', dependencies: [] };
  const now = Date.parse('2026-11-28T00:00:00Z');

  it('refuses a deadline at or before now, and takes one after it', () => {
    expect(buildAssignTask({ ...draft, deadline: '2026-11-27T23:59', now })).toMatchObject({
      ok: false,
      error: { message: 'The deadline is in the past: pick a time after now (UTC).' },
    });
    expect(buildAssignTask({ ...draft, deadline: '2026-11-28T00:00', now }).ok).toBe(false);
    expect(buildAssignTask({ ...draft, now }).ok).toBe(true);
  });

  it('refuses a title over the line limit, with its size', () => {
    expect(buildAssignTask({ ...draft, title: 't'.repeat(100_000), now })).toMatchObject({
      ok: false,
      error: { message: 'The title must be at most 200 characters (this has 100,000).' },
    });
    expect(buildAssignTask({ ...draft, title: 't'.repeat(200), now }).ok).toBe(true);
  });
});
