import { describe, expect, it } from 'vitest';
import { sendBlockedReason } from './external-blocked';

const status = (state: 'up' | 'down' | 'connecting', lastError: string | null = null) => ({
  state,
  since: 0,
  lastOkAt: null,
  lastError,
  failures: 0,
  nextRetryAt: null,
});

describe('sendBlockedReason', () => {
  it('lets a writable service that is up or still connecting be tried', () => {
    expect(sendBlockedReason({ name: 'Partner', readOnly: false, status: status('up') }, 'threads')).toBeNull();
    expect(sendBlockedReason({ name: 'Partner', readOnly: false, status: status('connecting') }, 'threads')).toBeNull();
  });

  it('blocks a read-only service, whatever its state', () => {
    expect(sendBlockedReason({ name: 'Partner', readOnly: true, status: status('up') }, 'negotiations')).toBe(
      'Partner is read-only here: the console shows its negotiations and never sends to it.',
    );
  });

  it('blocks a service that is down, with its last error', () => {
    expect(
      sendBlockedReason({ name: 'Partner', readOnly: false, status: status('down', 'ECONNREFUSED') }, 'threads'),
    ).toMatch(/^Partner is down \(ECONNREFUSED\): nothing can be sent/);
  });
});
