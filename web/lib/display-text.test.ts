import { describe, expect, it } from 'vitest';
import { BIDI_MARKER, displayText, NUL_MARKER } from './display-text';

describe('displayText', () => {
  it('leaves ordinary names alone, including right-to-left script', () => {
    expect(displayText('Research room')).toBe('Research room');
    expect(displayText('غرفة البحث')).toBe('غرفة البحث');
  });

  it('makes every bidi control visible instead of acting', () => {
    expect(displayText('evil\u202etxt.exe')).toBe(`evil${BIDI_MARKER}txt.exe`);
    for (const c of [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ])
      expect(displayText(`a${c}b`)).toBe(`a${BIDI_MARKER}b`);
  });

  it('shows NUL as ␀', () => {
    expect(displayText('room\u0000id')).toBe(`room${NUL_MARKER}id`);
    expect(displayText('\u0000\u202e\u0000')).toBe(`${NUL_MARKER}${BIDI_MARKER}${NUL_MARKER}`);
  });
});
