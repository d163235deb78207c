import { describe, expect, it } from 'vitest';
import { OacopErrorCode } from '@shared/oacop/error-codes';
import { oacopErrorWords } from './oacop-words';

describe('oacopErrorWords', () => {
  it('explains every §5 code in words, never as the bare code', () => {
    for (const code of Object.values(OacopErrorCode)) {
      const words = oacopErrorWords(code);
      expect(words).not.toBe(code);
      expect(words.length).toBeGreaterThan(20);
    }
  });

  it("says what stale and conflict mean for the operator, and keeps the sender's message", () => {
    expect(oacopErrorWords('OACOP_STALE_REVISION', 'holds revision 3')).toMatch(
      /different revision.*\(holds revision 3\)$/,
    );
    expect(oacopErrorWords('OACOP_CONFLICT')).toMatch(/no longer free/);
  });

  it('falls back to the message for an unknown code', () => {
    expect(oacopErrorWords('SOMETHING_ELSE', 'It broke.')).toBe('It broke.');
    expect(oacopErrorWords('SOMETHING_ELSE')).toBe('SOMETHING_ELSE');
  });
});
