import { describe, expect, it } from 'vitest';
import { reviewItemId, reviewItemPrefix } from './item-ids';

describe('inbox item ids', () => {
  it('name a review item by its room and candidate, under the room’s prefix', () => {
    expect(reviewItemId('ops', 12)).toBe('review:ops:12');
    expect(reviewItemId('ops', '12')).toBe(reviewItemId('ops', 12));
    expect(reviewItemId('ops', 3).startsWith(reviewItemPrefix('ops'))).toBe(true);
    expect(reviewItemId('ops2', 3).startsWith(reviewItemPrefix('ops'))).toBe(false);
  });
});
