import { CopyButton } from '@web/components/ui/copy-button';
import { keyFingerprint } from '@web/lib/identity/did-display';

/** The operator's did:key in full (copyable) with its short fingerprint. */
export function IdentityCard({ did, label = 'Your operator identity' }: { did: string; label?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 p-3 dark:border-slate-800 dark:bg-slate-950/60">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</p>
        <CopyButton text={did} label="Copy DID" />
      </div>
      <p
        data-testid="operator-did"
        className="mt-1 break-all font-mono text-xs leading-relaxed text-slate-900 dark:text-slate-100"
      >
        {did}
      </p>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
        Fingerprint{' '}
        <span className="whitespace-nowrap font-mono tracking-wide text-slate-900 dark:text-slate-200">
          {keyFingerprint(did)}
        </span>
      </p>
    </div>
  );
}
