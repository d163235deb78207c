import { describe, expect, it } from 'vitest';
import { isOverdue } from './overdue';

const now = Date.parse('2026-11-28T12:00:00Z');

describe('isOverdue', () => {
  it('is overdue once the deadline passed while the task is open', () => {
    expect(isOverdue({ status: 'IN_PROGRESS', deadline: '2026-11-28T11:59:00Z' }, now)).toBe(true);
    expect(isOverdue({ status: 'ASSIGNED', deadline: '2026-11-28T12:01:00Z' }, now)).toBe(false);
  });

  it('is never overdue once completed or declined, nor with a deadline it cannot read', () => {
    expect(isOverdue({ status: 'COMPLETED', deadline: '2026-11-01T00:00:00Z' }, now)).toBe(false);
    expect(isOverdue({ status: 'DECLINED', deadline: '2026-11-01T00:00:00Z' }, now)).toBe(false);
    expect(isOverdue({ status: 'BLOCKED', deadline: 'soon' }, now)).toBe(false);
  });
});
