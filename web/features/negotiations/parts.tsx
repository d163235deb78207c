// Small pieces the negotiation screens share: a party by name (the naming service), a state badge.
import { Name } from '@web/components/name';
import type { NegotiationStateName } from '@web/lib/api/negotiations-list';
import { STATE_TONE, STATE_WORDS } from './words';

/** A party by its name, its did:key one click away; `plain` inside a link. */
export function Party({ did, me, plain = false }: { did: string; me: string | undefined; plain?: boolean }) {
  return <Name id={did} me={me} plain={plain} className="whitespace-nowrap" />;
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
