// Every way sign-in, enrollment or a backup can fail, said in words with what to do next
//. The server's own message is the fallback for codes not known here.
import { ApiError } from '@web/lib/api/http';
import { CodedError } from '@shared/errors';

export const INVITE_COMMAND = 'npm run cli -- operators invite --role facilitator';

export interface ErrorText {
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** A command for an administrator to run, shown copyable. */
  readonly command?: string;
}

export function describeAuthError(error: unknown): ErrorText {
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'NETWORK_ERROR':
        return {
          code: error.code,
          title: 'The server cannot be reached',
          detail: 'Check that Switchboard is running and that this address is right, then try again.',
        };
      case 'ENROLLMENT_INVALID': {
        // Which of the three the server says (decisions-server.md §84).
        const reason = (error.details as { reason?: unknown } | undefined)?.reason;
        const [title, detail] =
          reason === 'used'
            ? ['This enrollment link was already used', 'Each link enrolls one key, and this one has.']
            : reason === 'expired'
              ? ['This enrollment link has expired', 'Links are valid for a limited time, and this one’s is over.']
              : [
                  'This enrollment link is not one this console made',
                  'Check that the whole link was copied; it may also have been withdrawn.',
                ];
        return {
          code: error.code,
          title,
          detail: `${detail} Ask a facilitator for a new one (Operators, in the account menu), or an administrator:`,
          command: INVITE_COMMAND,
        };
      }
      case 'NOT_ENROLLED':
        return {
          code: error.code,
          title: 'This key is not enrolled on this server',
          detail:
            'This browser knows the key, but this Switchboard server does not. Ask an administrator for an enrollment link and open it in this browser, or restore a key that is enrolled here from its backup.',
          command: INVITE_COMMAND,
        };
      case 'CHALLENGE_INVALID':
        return {
          code: error.code,
          title: 'The sign-in challenge expired',
          detail: 'It is only valid for a short time and only once. Try again.',
        };
      case 'SIGNATURE_INVALID':
        return {
          code: error.code,
          title: 'The server did not accept the signature',
          detail:
            'The key in this browser signed the challenge, but the server could not verify it. Try again; if it keeps failing, restore your key from its backup.',
        };
      case 'RATE_LIMITED':
        return { code: error.code, title: 'Too many attempts', detail: 'Wait a minute, then try again.' };
      case 'UNAUTHORIZED':
        return {
          code: error.code,
          title: 'Not allowed',
          detail: error.message || 'This operator may not sign in here. Ask an administrator.',
        };
      case 'BAD_RESPONSE':
        return {
          code: error.code,
          title: 'Unexpected answer from the server',
          detail:
            'The server and this console may be different versions. Reload the page; if that does not help, tell an administrator.',
        };
      default:
        return { code: error.code, title: 'The server refused', detail: error.message };
    }
  }
  if (error instanceof CodedError) {
    return {
      code: error.code,
      title: error.code.startsWith('BACKUP_') ? 'The backup cannot be used' : 'Something went wrong',
      detail: error.message,
    };
  }
  return {
    code: 'UNEXPECTED',
    title: 'Something went wrong',
    detail: error instanceof Error ? error.message : String(error),
  };
}
