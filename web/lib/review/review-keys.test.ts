import { describe, expect, it } from 'vitest';
import { dispatchReviewKey, registerReviewKeys, reviewListShown, type ReviewKeyAction } from './review-keys';

describe('review keys', () => {
  it('go nowhere while no review list is on screen', () => {
    expect(reviewListShown()).toBe(false);
    expect(dispatchReviewKey('approve')).toBe(false);
  });

  it('go to the newest list on screen, and back to the older one when it leaves', () => {
    const seen: string[] = [];
    const older = registerReviewKeys((a: ReviewKeyAction) => (seen.push(`older ${a}`), true));
    const newer = registerReviewKeys((a: ReviewKeyAction) => (seen.push(`newer ${a}`), a !== 'reject'));
    expect(dispatchReviewKey('next')).toBe(true);
    expect(dispatchReviewKey('reject')).toBe(false);
    newer();
    newer();
    expect(dispatchReviewKey('approve')).toBe(true);
    older();
    expect(reviewListShown()).toBe(false);
    expect(seen).toEqual(['newer next', 'newer reject', 'older approve']);
  });
});
