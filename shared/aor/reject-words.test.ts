import { describe, expect, it } from 'vitest';
import { REJECT_REASONS } from './reject-reasons';
import { rejectReasonInWords } from './reject-words';

describe('rejectReasonInWords', () => {
  it('has words for every reason the gateway gives', () => {
    for (const reason of REJECT_REASONS) expect(rejectReasonInWords(reason)).not.toContain(reason);
  });

  it('shows an unknown reason as given, and never reads a prototype key as a reason', () => {
    expect(rejectReasonInWords('too_loud')).toBe('rejected (too_loud)');
    expect(rejectReasonInWords('constructor')).toBe('rejected (constructor)');
  });
});
