import { describe, expect, it } from 'vitest';
import { CodedError } from '@shared/errors';
import { ApiError } from '@web/lib/api/http';
import { describeAuthError, INVITE_COMMAND } from './auth-errors';

describe('describeAuthError', () => {
  it('says which of used, expired or unknown an enrollment link is, with the command for a new one', () => {
    const used = describeAuthError(new ApiError(401, 'ENROLLMENT_INVALID', 'x', { reason: 'used' }));
    expect(used.title).toBe('This enrollment link was already used');
    expect(used.detail).toBe(
      'Each link enrolls one key, and this one has. Ask a facilitator for a new one (Operators, in the account menu), or an administrator:',
    );
    expect(describeAuthError(new ApiError(401, 'ENROLLMENT_INVALID', 'x', { reason: 'expired' })).title).toBe(
      'This enrollment link has expired',
    );
    const text = describeAuthError(new ApiError(401, 'ENROLLMENT_INVALID', 'bad token'));
    expect(text.title).toBe('This enrollment link is not one this console made');
    expect(text.command).toBe('npm run cli -- operators invite --role facilitator');
    expect(INVITE_COMMAND).toBe(text.command);
  });

  it('gives NOT_ENROLLED its own message', () => {
    const text = describeAuthError(new ApiError(403, 'NOT_ENROLLED', 'unknown did'));
    expect(text.title).toMatch(/not enrolled on this server/);
    expect(text.detail).toMatch(/This browser knows the key, but this Switchboard server does not/);
  });

  it.each(['NETWORK_ERROR', 'CHALLENGE_INVALID', 'SIGNATURE_INVALID', 'RATE_LIMITED', 'UNAUTHORIZED', 'BAD_RESPONSE'])(
    'says %s in words',
    (code) => {
      const text = describeAuthError(new ApiError(code === 'NETWORK_ERROR' ? 0 : 401, code, 'server words'));
      expect(text.code).toBe(code);
      expect(text.title).not.toMatch(/_/);
      expect(text.detail.length).toBeGreaterThan(10);
    },
  );

  it("falls back to the server's message for codes it does not know", () => {
    expect(describeAuthError(new ApiError(500, 'INTERNAL', 'The database is locked.'))).toMatchObject({
      detail: 'The database is locked.',
    });
  });

  it('passes on coded errors (a bad backup) and anything else', () => {
    expect(describeAuthError(new CodedError('BACKUP_DECRYPT_FAILED', 'The passphrase is wrong.'))).toMatchObject({
      title: 'The backup cannot be used',
      detail: 'The passphrase is wrong.',
    });
    expect(describeAuthError(new Error('boom'))).toMatchObject({ code: 'UNEXPECTED', detail: 'boom' });
  });
});
