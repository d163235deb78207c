// A calm, persistent notice while the signed-in key has no backup. Such a key can no longer be
// exported (it is a non-extractable CryptoKey), so the notice says what can be done instead:
// enroll a new key, made with its backup, from a new enrollment link.
import { CommandLine } from '@web/components/ui/notice';
import { INVITE_COMMAND } from '@web/lib/identity/auth-errors';
import { useStoredIdentity } from '@web/lib/identity/identity-queries';

export function BackupReminder({ sessionDid }: { sessionDid: string }) {
  const stored = useStoredIdentity();
  const identity = stored.data;
  if (!identity || identity.did !== sessionDid || identity.backedUpAt !== undefined) return null;
  return (
    <div
      role="status"
      className="mx-auto mb-6 max-w-3xl rounded-lg border border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-950 dark:border-amber-900/50 dark:bg-amber-950/30 dark:text-amber-100"
    >
      <p>
        <span className="font-medium">Your key has no backup.</span>{' '}
        {identity.migratedAt !== undefined
          ? 'It is now locked inside this browser, where no page script can read it, so it can no longer be exported.'
          : 'It is locked inside this browser, where no page script can read it, so it cannot be exported.'}{' '}
        If this browser's data is cleared, you cannot sign in again. To get a key with a backup, ask an administrator
        for a new enrollment link and open it here: it offers to make a new key, with its backup file, in this one's
        place.
      </p>
      <CommandLine command={INVITE_COMMAND} className="mt-2" />
    </div>
  );
}
