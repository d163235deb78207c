import { describe, expect, it } from 'vitest';
import { OperatorName, operatorNameProblem, shortDid } from './operator-name';

describe('operator names', () => {
  it('takes 1–60 characters as people count them, trimmed', () => {
    expect(OperatorName.parse('  Ana Lima ')).toBe('Ana Lima');
    expect(operatorNameProblem('é'.repeat(60))).toBeUndefined();
    expect(operatorNameProblem('🛰'.repeat(60))).toBeUndefined();
    expect(operatorNameProblem('🛰'.repeat(61))).toBe('must be at most 60 characters');
    expect(operatorNameProblem('  ')).toBe('must not be empty');
  });

  it('refuses C0 and C1 controls and bidi controls anywhere', () => {
    for (const bad of ['A\u0000', '\tAna', 'A\u001bB', 'A\u007f', 'A\u0085'])
      expect(operatorNameProblem(bad), JSON.stringify(bad)).toBe('must not contain control characters');
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200f])
      expect(operatorNameProblem(`Ana${String.fromCharCode(code)}`)).toBe(
        'must not contain bidirectional control characters',
      );
    expect(OperatorName.safeParse('\u202eanA').success).toBe(false);
  });

  it('shortens a did:key for people', () => {
    expect(shortDid('did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK')).toBe('did:key:z6Mk…ta2doK');
    expect(shortDid('did:key:zShort')).toBe('did:key:zShort');
  });
});
