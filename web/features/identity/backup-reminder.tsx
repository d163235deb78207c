// A calm, persistent nudge until the signed-in key has been backed up at least once.
import { useState } from 'react';
import { Button } from '@web/components/ui/button';
import { useStoredIdentity } from '@web/lib/identity/identity-queries';
import { BackupDialog } from './backup-dialog';

export function BackupReminder({ sessionDid }: { sessionDid: string }) {
  const stored = useStoredIdentity();
  const [open, setOpen] = useState(false);
  const identity = stored.data;
  const needed = identity !== undefined && identity !== null && identity.did === sessionDid && identity.backedUpAt === undefined;
  // The dialog stays while open, so its "downloaded" confirmation is seen after the banner goes.
  if (!needed && !open) return null;
  return (
    <>
      {needed ? (
    <div role="status" className="mx-auto mb-6 flex max-w-3xl flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-950 dark:border-amber-900/50 dark:bg-amber-950/30 dark:text-amber-100">
      <p className="min-w-0 flex-1">
        <span className="font-medium">Your key is not backed up yet.</span> If this browser's data is cleared, you cannot sign in again.
      </p>
      <Button size="sm" onClick={() => setOpen(true)}>
        Download backup
      </Button>
    </div>
      ) : null}
      <BackupDialog open={open} onOpenChange={setOpen} />
    </>
  );
}
