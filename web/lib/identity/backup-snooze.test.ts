import { describe, expect, it } from 'vitest';
import { isSnoozed, SNOOZE_MS, useBackupSnooze } from './backup-snooze';

describe('backup reminder snooze', () => {
  it('waits a week for the key it was snoozed for, and only that key', () => {
    useBackupSnooze.getState().snooze('did:key:a', 1_000);
    const { until } = useBackupSnooze.getState();
    expect(isSnoozed(until, 'did:key:a', 1_000 + SNOOZE_MS - 1)).toBe(true);
    expect(isSnoozed(until, 'did:key:a', 1_000 + SNOOZE_MS)).toBe(false);
    expect(isSnoozed(until, 'did:key:b', 1_000)).toBe(false);
  });
});
