// The negotiations list: state, parties, category, rounds, last activity,
// "expiring soon", and what changed since this browser last looked; filter by state.
import { When } from '@web/components/when';
import { useQuery } from '@tanstack/react-query';
import { displayText } from '@web/lib/display-text';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { NEGOTIATION_STATES, negotiationsQuery, type NegotiationStateName } from '@web/lib/api/negotiations-list';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { useState } from 'react';
import { SourceBadge } from '@web/components/ui/source-badge';
import { externalNegotiationsQuery } from '@web/lib/api/external-negotiations';
import { mergeNegotiations, type NegotiationRow } from './merged-list';
import { NewNegotiationDialog } from './new-negotiation-dialog';
import { Party, StateBadge } from './parts';
import { changedSince, seenStore } from './seen-versions';
import { useNow } from '@web/lib/use-now';
import { countdown, negotiationErrorInWords, STATE_WORDS } from './words';

export function NegotiationsPage() {
  const search = useSearch({ strict: false }) as { state?: NegotiationStateName };
  const state = search.state ?? null;
  const navigate = useNavigate();
  const list = useQuery(negotiationsQuery(state));
  // Negotiations on external services, merged in with their source. Their failure
  // leaves the built-in list as it is.
  const external = useQuery(externalNegotiationsQuery);
  const rows = list.data ? mergeNegotiations(list.data.negotiations, external.data ?? [], state) : [];
  const session = useSession();
  const now = useNow(1_000);
  const [opening, setOpening] = useState(false);

  return (
    <div className="mx-auto max-w-5xl">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Negotiations</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            RFC 0002: two parties converge on terms round by round; every step is signed, and an acceptance produces an
            agreement in the{' '}
            <Link to="/transparency-log" className="text-teal-700 underline underline-offset-2 dark:text-teal-300">
              transparency log
            </Link>
            .
          </p>
        </div>
        <Button variant="primary" onClick={() => setOpening(true)} disabled={!canAct(session)}>
          New negotiation
        </Button>
      </div>

      <div className="mt-5 flex flex-wrap items-center gap-3">
        <label className="text-sm text-slate-700 dark:text-slate-300" htmlFor="negotiation-state-filter">
          State
        </label>
        <select
          id="negotiation-state-filter"
          value={state ?? ''}
          onChange={(e) =>
            void navigate({
              to: '/negotiations',
              search: e.target.value ? { state: e.target.value as NegotiationStateName } : {},
            })
          }
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
        >
          <option value="">All states</option>
          {NEGOTIATION_STATES.map((s) => (
            <option key={s} value={s}>
              {STATE_WORDS[s]}
            </option>
          ))}
        </select>
      </div>

      <div className="mt-4">
        {list.isPending ? (
          <p role="status" className="text-sm text-slate-500">
            Loading negotiations…
          </p>
        ) : list.isError ? (
          <Notice
            tone="error"
            title="Cannot list negotiations"
            action={<Button onClick={() => void list.refetch()}>Try again</Button>}
          >
            {negotiationErrorInWords(list.error)}
          </Notice>
        ) : rows.length === 0 ? (
          <Notice
            tone="info"
            title={state ? `No ${STATE_WORDS[state].toLowerCase()} negotiations` : 'No negotiations yet'}
          >
            Agents open negotiations through the negotiation service; when the server runs its demo, four appear within
            seconds. You can open one yourself with “New negotiation”.
          </Notice>
        ) : (
          <ul
            aria-label="Negotiations"
            className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
          >
            {rows.map((row) => (
              <li key={row.key}>
                {row.kind === 'read' ? (
                  <NegotiationRowLink row={row} me={session?.did} now={now} />
                ) : (
                  <Link
                    to="/negotiations/$negotiationId"
                    params={{ negotiationId: row.id }}
                    search={{ source: row.source.id }}
                    data-testid="negotiation-row"
                    className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-sm hover:bg-slate-50 focus-visible:bg-slate-50 dark:hover:bg-slate-800/60 dark:focus-visible:bg-slate-800/60"
                  >
                    <SourceBadge name={row.source.name} down={row.source.status.state === 'down'} />
                    <span className="min-w-0 font-mono text-xs">{displayText(row.id)}</span>
                    <span className="text-slate-600 dark:text-slate-400">
                      Cannot be read now ({row.reason ?? 'unknown'}); the console keeps asking.
                    </span>
                  </Link>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      {canAct(session) && session ? (
        <NewNegotiationDialog open={opening} onOpenChange={setOpening} me={session.did} />
      ) : null}
    </div>
  );
}

/** A negotiation the console could read, built-in or external, linking to its page. */
function NegotiationRowLink({
  row,
  me,
  now,
}: {
  row: Extract<NegotiationRow, { kind: 'read' }>;
  me: string | undefined;
  now: number;
}) {
  const n = row.summary;
  // "Changed since you looked" is kept per built-in negotiation only: ids are the built-in service's.
  const seen = row.source ? null : seenStore.get(n.id);
  const changed = row.source ? false : changedSince(seen, n.version);
  return (
    <Link
      to="/negotiations/$negotiationId"
      params={{ negotiationId: n.id }}
      search={row.source ? { source: row.source.id } : {}}
      data-testid="negotiation-row"
      className="grid grid-cols-[7rem_1fr_auto] items-center gap-x-4 gap-y-1 px-4 py-3 hover:bg-slate-50 focus-visible:bg-slate-50 sm:grid-cols-[7rem_8rem_1fr_9rem_12rem] dark:hover:bg-slate-800/60 dark:focus-visible:bg-slate-800/60"
    >
      <span>
        <StateBadge state={n.state} />
      </span>
      <span className="flex flex-col items-start gap-1 text-sm font-medium">
        {n.category}
        <SourceBadge name={row.source?.name ?? 'built-in'} down={row.source?.status.state === 'down'} />
      </span>
      <span className="flex min-w-0 flex-wrap items-center gap-x-2 text-slate-600 dark:text-slate-400">
        <Party did={n.parties[0]} me={me} plain />
        <span aria-hidden>↔</span>
        <Party did={n.parties[1]} me={me} plain />
        {row.verified === false ? (
          <span
            data-testid="unverified-mark"
            className="basis-full text-xs font-medium text-rose-700 dark:text-rose-300"
          >
            Unverified: its history does not replay here ({row.reason ?? 'unknown'})
          </span>
        ) : null}
      </span>
      <span className="text-sm text-slate-600 dark:text-slate-400">
        {n.rounds} of {n.max_rounds} rounds
      </span>
      <span className="flex flex-col items-start gap-0.5 text-xs text-slate-600 sm:items-end dark:text-slate-400">
        <span>
          last activity <When at={n.last_activity} form="relative" />
        </span>
        <span className="flex gap-1">
          {n.expiring_soon && n.valid_until ? (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200">
              Expiring soon · {countdown(Date.parse(n.valid_until), now)}
            </span>
          ) : null}
          {changed ? (
            <span
              data-testid="changed-mark"
              className="rounded-full bg-teal-100 px-2 py-0.5 font-medium text-teal-900 dark:bg-teal-950 dark:text-teal-200"
            >
              {seen === null ? 'New to you' : 'Changed since you looked'}
            </span>
          ) : null}
        </span>
      </span>
    </Link>
  );
}
