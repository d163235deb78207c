import { describe, expect, it } from 'vitest';
import { reviewKeyAction } from '@web/lib/review/review-keys';

const list = {} as EventTarget;
const key = (k: string, extra: Partial<{ target: EventTarget; ctrlKey: boolean }> = {}) => ({
  key: k,
  target: list,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...extra,
});

describe('review keys', () => {
  it('maps J/K/A/R while the list has focus', () => {
    expect(['j', 'K', 'a', 'R'].map((k) => reviewKeyAction(key(k), list))).toEqual([
      'next',
      'previous',
      'approve',
      'reject',
    ]);
  });
  it('does nothing from elsewhere, with modifiers, or for other keys', () => {
    expect(reviewKeyAction(key('a', { target: {} as EventTarget }), list)).toBeNull();
    expect(reviewKeyAction(key('a', { ctrlKey: true }), list)).toBeNull();
    expect(reviewKeyAction(key('x'), list)).toBeNull();
  });
});
