// Storage failures the operator must fix on the machine (a full disk, a read-only DATA_DIR, a
// failing device), told apart from bugs so they become a coded 503 on HTTP and one coded log
// line, never a generic 500 or a silent drop. SQLite reports them as SQLITE_* codes; the
// filesystem as errno codes.
export type StorageFailureCode = 'STORAGE_FULL' | 'STORAGE_READ_ONLY' | 'STORAGE_UNAVAILABLE';

export interface StorageFailure {
  readonly code: StorageFailureCode;
  readonly message: string;
}

const MESSAGES: Readonly<Record<StorageFailureCode, string>> = {
  STORAGE_FULL: 'The disk under DATA_DIR is full; nothing was written. Free space and retry.',
  STORAGE_READ_ONLY: 'DATA_DIR is read-only; nothing was written.',
  STORAGE_UNAVAILABLE: 'The database under DATA_DIR could not be written; nothing was written.',
};

export function storageFailure(error: unknown): StorageFailure | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  let failure: StorageFailureCode | undefined;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') failure = 'STORAGE_FULL';
  else if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') failure = 'STORAGE_READ_ONLY';
  else if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') || code === 'EIO')
    failure = 'STORAGE_UNAVAILABLE';
  return failure && { code: failure, message: MESSAGES[failure] };
}
