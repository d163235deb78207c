import { describe, expect, it } from 'vitest';
import { CodedError, assertNever, fail, isCodedError, ok, unwrap } from './errors';

describe('coded errors', () => {
  it('serialize to { code, message, details? }', () => {
    expect(new CodedError('X', 'why').toJSON()).toEqual({ code: 'X', message: 'why' });
    expect(new CodedError('X', 'why', { a: 1 }).toJSON()).toEqual({ code: 'X', message: 'why', details: { a: 1 } });
    expect(isCodedError(new CodedError('X', 'y'))).toBe(true);
    expect(isCodedError(new Error('y'))).toBe(false);
  });

  it('build and unwrap results', () => {
    expect(unwrap(ok(5))).toBe(5);
    expect(fail('NOPE', 'no', { n: 1 })).toEqual({
      ok: false,
      error: { code: 'NOPE', message: 'no', details: { n: 1 } },
    });
    expect(() => unwrap(fail('NOPE', 'no'))).toThrow(expect.objectContaining({ code: 'NOPE', message: 'no' }));
  });

  it('assertNever reports the unhandled value', () => {
    expect(() => assertNever('surprise' as never, 'message type')).toThrow('Unhandled message type: "surprise"');
  });
});
