// The first thing the console shows after enrolling: the role given and, when the key was made
// on the enrollment page, where its backup went, with "Download again" while this tab holds the
// file (web/lib/identity/just-enrolled.ts). Dismissed by hand; gone on reload.
import { Button } from '@web/components/ui/button';
import { downloadTextFile } from '@web/lib/identity/download-file';
import { useJustEnrolled } from '@web/lib/identity/just-enrolled';
import { RoleBadge } from './role-badge';

export function EnrolledNotice() {
  const enrolled = useJustEnrolled((s) => s.enrolled);
  if (!enrolled) return null;
  const { role, backup } = enrolled;
  return (
    <div
      role="status"
      data-testid="enrolled-notice"
      className="mx-auto mb-6 flex max-w-3xl flex-wrap items-start gap-x-4 gap-y-2 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-2.5 text-sm text-emerald-950 dark:border-emerald-900/60 dark:bg-emerald-950/30 dark:text-emerald-100"
    >
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 font-medium">
          You are enrolled as <RoleBadge role={role} />
        </p>
        {backup ? (
          <p className="mt-1">
            Your key’s backup was saved as <span className="break-all font-mono text-xs">{backup.fileName}</span>. Keep
            it somewhere safe, away from this computer, and remember its passphrase. It can be downloaded again only
            until this tab is reloaded or closed.
          </p>
        ) : null}
      </div>
      <span className="flex gap-2">
        {backup ? (
          <Button size="sm" onClick={() => downloadTextFile(backup.fileName, backup.text)}>
            Download again
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" onClick={() => useJustEnrolled.getState().set(null)}>
          Dismiss
        </Button>
      </span>
    </div>
  );
}
