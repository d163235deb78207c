import { describe, expect, it } from 'vitest';
import { OsnapErrorCode, issueList, osnapFail } from './osnap-errors';

describe('OSNAP error codes', () => {
  it('are distinct, OSNAP_-prefixed strings', () => {
    const codes = Object.values(OsnapErrorCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^OSNAP_[A-Z_]+$/);
  });

  it('build failures with or without details, and flatten issue paths', () => {
    expect(osnapFail(OsnapErrorCode.INVALID_QUERY, 'm')).toEqual({
      ok: false,
      error: { code: 'OSNAP_INVALID_QUERY', message: 'm' },
    });
    expect(osnapFail(OsnapErrorCode.INVALID_QUERY, 'm', { a: 1 }).error.details).toEqual({ a: 1 });
    expect(issueList([{ path: ['payload', 0, 'name'], message: 'x' }])).toEqual([
      { path: 'payload.0.name', message: 'x' },
    ]);
  });
});
