// "Remind me in a week" for the missing-backup reminder: per key (a new key is a new question),
// remembered per browser like the other preferences.
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export const SNOOZE_MS = 7 * 24 * 60 * 60 * 1000;

interface BackupSnoozeState {
  /** Per DID: the reminder shows again from this time (epoch ms). */
  readonly until: Readonly<Record<string, number>>;
  readonly snooze: (did: string, now: number) => void;
}

export const useBackupSnooze = create<BackupSnoozeState>()(
  persist(
    (set) => ({
      until: {},
      snooze: (did, now) => set((s) => ({ until: { ...s.until, [did]: now + SNOOZE_MS } })),
    }),
    { name: 'switchboard.backup-reminder', partialize: ({ until }) => ({ until }) },
  ),
);

/** Whether the reminder for `did` waits at `now`. */
export const isSnoozed = (until: Readonly<Record<string, number>>, did: string, now: number): boolean =>
  (until[did] ?? 0) > now;
