import { describe, expect, it } from 'vitest';
import { collapse, COLLAPSE_CHARS } from './long-text';

describe('collapse', () => {
  it('keeps short text whole', () => {
    expect(collapse('hello')).toEqual({ head: 'hello', cut: false });
    expect(collapse('x'.repeat(COLLAPSE_CHARS))).toEqual({ head: 'x'.repeat(COLLAPSE_CHARS), cut: false });
  });

  it('cuts a 100 KB value at 400 characters', () => {
    const shown = collapse('y'.repeat(100_000));
    expect(shown.cut).toBe(true);
    expect(shown.head).toHaveLength(COLLAPSE_CHARS);
  });

  it('cuts after the sixth line even when the text is short', () => {
    const text = ['1', '2', '3', '4', '5', '6', '7', '8'].join('\n');
    expect(collapse(text)).toEqual({ head: '1\n2\n3\n4\n5\n6', cut: true });
    expect(collapse('1\n2\n3\n4\n5\n6')).toEqual({ head: '1\n2\n3\n4\n5\n6', cut: false });
  });

  it('never splits a surrogate pair', () => {
    const shown = collapse(`${'x'.repeat(COLLAPSE_CHARS - 1)}😀tail`);
    expect(shown).toEqual({ head: 'x'.repeat(COLLAPSE_CHARS - 1), cut: true });
  });
});
