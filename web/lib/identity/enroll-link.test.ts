import { describe, expect, it } from 'vitest';
import { readEnrollToken } from './enroll-link';

describe('readEnrollToken', () => {
  it.each([
    ['#token=abc_DEF-123', 'abc_DEF-123'],
    ['token=abc', 'abc'],
    ['#token=a%2Bb&x=1', 'a+b'],
    ['#x=1&token=zz', 'zz'],
    ['', null],
    ['#', null],
    ['#token=', null],
    ['#tok=abc', null],
  ])('%j → %j', (hash, token) => {
    expect(readEnrollToken(hash)).toBe(token);
  });
});
