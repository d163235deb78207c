import { describe, expect, it } from 'vitest';
import { budgetLeftWords } from './review-words';

describe('a review’s budget in words', () => {
  it('says what is left, of how many, and never a negative count', () => {
    expect(budgetLeftWords(4, 6)).toBe('4 of 6 messages left on the grant');
    expect(budgetLeftWords(1, 1)).toBe('1 of 1 message left on the grant');
    expect(budgetLeftWords(1)).toBe('1 message left on the grant');
    expect(budgetLeftWords(0, 6)).toBe('no message left on the grant');
    expect(budgetLeftWords(-2, 6)).toBe('no message left on the grant');
  });
});
