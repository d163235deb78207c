// Small pieces the negotiation screens share: a party by its short DID, a state badge.
import { shortDid } from '@web/lib/identity/did-short';
import type { NegotiationStateName } from '@web/lib/api/negotiations-list';
import { STATE_TONE, STATE_WORDS } from './words';

export function Party({ did, me }: { did: string; me: string | undefined }) {
  return (
    <span className="whitespace-nowrap font-mono text-xs" title={did}>
      {shortDid(did)}
      {did === me ? (
        <span className="ml-1 rounded bg-teal-100 px-1 font-sans text-[11px] font-medium text-teal-900 dark:bg-teal-900 dark:text-teal-100">
          you
        </span>
      ) : null}
    </span>
  );
}

export function StateBadge({ state }: { state: NegotiationStateName }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATE_TONE[state]}`}>{STATE_WORDS[state]}</span>
  );
}

/** A verification verdict, in words and colour (never colour alone). */
export function VerifiedBadge({
  ok,
  label,
  title,
}: {
  ok: boolean | null;
  label?: string;
  title?: string | undefined;
}) {
  const text = label ?? (ok === null ? 'Checking…' : ok ? 'Verified' : 'Not verified');
  const tone =
    ok === null
      ? 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'
      : ok
        ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'
        : 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200';
  return (
    <span
      data-testid="verified-badge"
      title={title}
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}
    >
      <span aria-hidden>{ok === null ? '…' : ok ? '✓' : '✗'}</span>
      {text}
    </span>
  );
}
