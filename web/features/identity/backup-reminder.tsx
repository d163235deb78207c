// A calm, one-line notice while the signed-in key has no backup. Such a key can no longer be
// exported (it is a non-extractable CryptoKey), so "What can I do?" says what can be done
// instead: enroll a new key, made with its backup, from a new enrollment link. It can wait a week
// (backup-snooze.ts) and never shows in presenter mode, where an audience is watching.
import { Button } from '@web/components/ui/button';
import { CommandLine } from '@web/components/ui/notice';
import { INVITE_COMMAND } from '@web/lib/identity/auth-errors';
import { isSnoozed, useBackupSnooze } from '@web/lib/identity/backup-snooze';
import { useStoredIdentity } from '@web/lib/identity/identity-queries';
import { usePresenter } from '@web/lib/presenter';
import { useState } from 'react';

export function BackupReminder({ sessionDid }: { sessionDid: string }) {
  const stored = useStoredIdentity();
  const identity = stored.data;
  const presenter = usePresenter((s) => s.on);
  const until = useBackupSnooze((s) => s.until);
  // Read once: a reminder that comes back mid-session would jump the page.
  const [now] = useState(() => Date.now());
  if (!identity || identity.did !== sessionDid || identity.backedUpAt !== undefined) return null;
  if (presenter || isSnoozed(until, sessionDid, now)) return null;
  return (
    <div
      role="status"
      data-testid="backup-reminder"
      className="mx-auto mb-6 flex max-w-3xl items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-1.5 text-sm text-amber-950 dark:border-amber-900/50 dark:bg-amber-950/30 dark:text-amber-100"
    >
      <details className="min-w-0 flex-1 py-0.5">
        <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 [&::-webkit-details-marker]:hidden">
          <span className="min-w-0 flex-1">
            <span className="font-medium">Your key has no backup.</span> Clearing this browser locks you out.
          </span>
          <span className="text-amber-800 underline underline-offset-2 dark:text-amber-200">What can I do?</span>
        </summary>
        <p className="mt-2">
          If this browser’s data is cleared, you cannot sign in again.{' '}
          {identity.migratedAt !== undefined
            ? 'It is now locked inside this browser, where no page script can read it, so it can no longer be exported.'
            : 'It is locked inside this browser, where no page script can read it, so it cannot be exported.'}{' '}
          To get a key with a backup, ask an administrator for a new enrollment link and open it here: it offers to make
          a new key, with its backup file, in this one’s place.
        </p>
        <CommandLine command={INVITE_COMMAND} className="my-2" />
      </details>
      <Button
        size="sm"
        variant="ghost"
        className="shrink-0"
        onClick={() => useBackupSnooze.getState().snooze(sessionDid, Date.now())}
      >
        Remind me in a week
      </Button>
    </div>
  );
}
