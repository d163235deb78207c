import { describe, expect, it } from 'vitest';
import { estimateBits, passphraseStrength } from './passphrase-strength';

describe('passphrase strength hint', () => {
  it.each([
    ['', 'too-short'],
    ['hunter2', 'too-short'],
    ['aaaaaaaaaaaa', 'weak'],
    ['abcdefghijkl', 'weak'],
    ['password1234', 'weak'],
    ['Tr0ub4dor&3x', 'fair'],
    ['q7#Vz!p2Lm@9xR4k', 'strong'],
    ['correct horse battery staple', 'strong'],
    ['correct horse battery staple violet lantern', 'very-strong'],
    ['violet lantern', 'weak'],
    ['violet lantern quarry', 'fair'],
  ] as const)('%j is %s', (passphrase, level) => {
    expect(passphraseStrength(passphrase).level).toBe(level);
  });

  it('always gives a hint in words', () => {
    for (const p of ['', 'short', 'aaaaaaaaaaaa', 'violet lantern', 'correct horse battery staple']) {
      expect(passphraseStrength(p).hint).toMatch(/\w+ \w+/);
    }
  });

  it('counts characters, not UTF-16 units', () => {
    expect(passphraseStrength('🔑🔑🔑🔑🔑').level).toBe('too-short');
  });

  it('grows with length and never goes below zero', () => {
    expect(estimateBits('correct horse battery staple')).toBeGreaterThan(estimateBits('correct horse'));
    expect(estimateBits('password')).toBeLessThan(5);
    expect(estimateBits('')).toBe(0);
  });
});
