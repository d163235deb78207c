// /activity: one log of what people and agents did (decisions-server.md §83):
// invitations, enrollments, role changes, agents created, rotated, suspended and resumed, tasks,
// grants and review decisions, newest first, filtered by who, what kind, on what and where, each
// filter in the address. Older pages by keyset; exports as JSON and CSV like a room's audit log.
// Room actions are worded by the rooms feature, handed in by web/app (features do not import each other).
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { ACTIVITY_KINDS, type ActivityEntry } from '@shared/contract/activity';
import { Name } from '@web/components/name';
import { Button } from '@web/components/ui/button';
import { LongText } from '@web/components/ui/long-text';
import { Notice } from '@web/components/ui/notice';
import { useDisplayZone, When } from '@web/components/when';
import { activityQuery, fetchAllActivity, type ActivityFilter } from '@web/lib/api/activity';
import { errorInWords } from '@web/lib/api/error-words';
import { displayText } from '@web/lib/display-text';
import { csvChunks, type CsvColumn } from '@web/lib/export/csv';
import { activityInWords, actorInWords, KIND_WORDS } from './activity-words';
import type { ActivitySearch } from './activity-search';

export type RoomWords = (e: Pick<ActivityEntry, 'action' | 'details'>) => string;

const iso = (ms: number) => new Date(ms).toISOString();

function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function ExportButtons({ filter, words }: { filter: ActivityFilter; words: (e: ActivityEntry) => string }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const columns: readonly CsvColumn<ActivityEntry>[] = [
    { header: 'id', value: (e) => e.id },
    { header: 'at', value: (e) => iso(e.at) },
    { header: 'actor_did', value: (e) => e.actorDid },
    { header: 'actor_name', value: (e) => e.actorName },
    { header: 'kind', value: (e) => e.kind },
    { header: 'action', value: (e) => e.action },
    { header: 'target', value: (e) => e.target },
    { header: 'room_id', value: (e) => e.roomId },
    { header: 'what', value: (e) => words(e) },
    { header: 'details', value: (e) => JSON.stringify(e.details) },
  ];
  const run = async (format: 'json' | 'csv') => {
    setBusy(format);
    setStatus(null);
    try {
      const rows = await fetchAllActivity(filter);
      const name = `switchboard-activity-${new Date().toISOString().slice(0, 19).replaceAll(':', '')}Z.${format}`;
      save(
        format === 'json'
          ? new Blob([JSON.stringify(rows, null, 1)], { type: 'application/json' })
          : new Blob([...csvChunks(columns, rows)], { type: 'text/csv;charset=utf-8' }),
        name,
      );
      setStatus({ tone: 'ok', text: `Saved ${rows.length} entries as ${name}.` });
    } catch (error) {
      setStatus({ tone: 'error', text: `Export failed: ${errorInWords(error)}` });
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      {(['json', 'csv'] as const).map((format) => (
        <Button key={format} size="sm" busy={busy === format} disabled={busy !== null} onClick={() => void run(format)}>
          Export {format.toUpperCase()}
        </Button>
      ))}
      {status ? (
        <span
          role={status.tone === 'error' ? 'alert' : 'status'}
          className={`text-sm ${status.tone === 'error' ? 'text-rose-700 dark:text-rose-300' : 'text-emerald-700 dark:text-emerald-300'}`}
        >
          {status.text}
        </span>
      ) : null}
    </div>
  );
}

const FIELD =
  'mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950';

export function ActivityPage({ roomWords }: { roomWords: RoomWords }) {
  const search = useSearch({ strict: false }) as ActivitySearch;
  const navigate = useNavigate();
  const zone = useDisplayZone();
  const filter: ActivityFilter = { actor: search.actor, kind: search.kind, target: search.target, room: search.room };
  const log = useInfiniteQuery(activityQuery(filter));
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const words = (e: ActivityEntry) => activityInWords(e, roomWords, zone);
  const set = (key: keyof ActivitySearch, value: string) => {
    const next: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...search, [key]: value.trim() })) if (v) next[k] = v;
    void navigate({ to: '/activity', search: next, replace: true });
  };
  const filtered = Object.values(filter).some((v) => v !== undefined);

  return (
    <div className="mx-auto max-w-6xl">
      <h1 className="text-2xl font-semibold tracking-tight">Activity</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        What people and agents did, newest first: invitations, enrollments and roles; agents created, rotated, suspended
        and resumed; tasks, grants and review decisions in every room.
      </p>
      <form
        aria-label="Filter the activity"
        className="mt-4 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] dark:border-slate-800 dark:bg-slate-900"
        onSubmit={(e) => e.preventDefault()}
      >
        <label className="text-sm">
          Kind
          <select className={FIELD} value={search.kind ?? ''} onChange={(e) => set('kind', e.target.value)}>
            <option value="">Everything</option>
            {ACTIVITY_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_WORDS[k]}
              </option>
            ))}
          </select>
        </label>
        <FilterField label="On (agent or operator)" value={search.target} onCommit={(v) => set('target', v)} />
        <FilterField label="By (operator key or cli)" value={search.actor} onCommit={(v) => set('actor', v)} />
        <FilterField label="Room" value={search.room} onCommit={(v) => set('room', v)} />
        <div className="flex items-end">
          <Button
            size="sm"
            disabled={!filtered}
            onClick={() => void navigate({ to: '/activity', search: {}, replace: true })}
          >
            Clear filters
          </Button>
        </div>
      </form>
      <div className="mt-3">
        <ExportButtons filter={filter} words={words} />
      </div>
      <section
        aria-labelledby="activity-heading"
        className="mt-4 min-w-0 rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      >
        <h2
          id="activity-heading"
          className="border-b border-slate-200 px-4 py-2 text-sm font-semibold dark:border-slate-800"
        >
          Entries{' '}
          <span className="font-normal text-slate-500">
            ({entries.length}
            {log.hasNextPage ? '+' : ''})
          </span>
        </h2>
        {log.isError ? (
          <div className="p-4">
            <Notice tone="error" title="The activity did not load">
              {errorInWords(log.error)}
            </Notice>
          </div>
        ) : entries.length === 0 ? (
          <p className="px-4 py-3 text-sm text-slate-500 dark:text-slate-400">
            {log.isPending ? 'Loading…' : filtered ? 'Nothing matches these filters.' : 'Nothing has happened yet.'}
          </p>
        ) : (
          <table className="w-full text-left text-sm max-md:block">
            <thead className="text-xs text-slate-500 max-md:hidden dark:text-slate-400">
              <tr className="border-b border-slate-100 dark:border-slate-800">
                <th className="px-4 py-1.5 font-medium">When</th>
                <th className="px-2 py-1.5 font-medium">Who</th>
                <th className="px-2 py-1.5 font-medium">What</th>
                <th className="px-4 py-1.5 font-medium">Where</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 max-md:block dark:divide-slate-800">
              {entries.map((e) => (
                <tr
                  key={e.id}
                  data-testid="activity-entry"
                  data-action={e.action}
                  className="align-top max-md:block max-md:py-1.5"
                >
                  <td className="whitespace-nowrap px-4 py-1.5 text-xs text-slate-500 max-md:inline-block max-md:py-0 max-md:pr-2">
                    <When at={e.at} />
                  </td>
                  <td
                    className="px-2 py-1.5 text-xs max-md:inline-block max-md:px-0 max-md:py-0"
                    data-testid="activity-who"
                  >
                    {e.actorDid.startsWith('did:') ? <Name id={e.actorDid} label={actorInWords(e)} /> : actorInWords(e)}
                  </td>
                  <td className="px-2 py-1.5 max-md:block max-md:px-4 max-md:py-0.5">
                    <LongText text={words(e)} preserveLines testId="activity-what" />
                  </td>
                  <td className="px-4 py-1.5 text-xs max-md:block max-md:py-0">
                    {e.roomId ? (
                      <Link
                        to="/rooms/$roomId"
                        params={{ roomId: e.roomId }}
                        className="text-teal-700 hover:underline dark:text-teal-300"
                      >
                        {displayText(e.roomId)}
                      </Link>
                    ) : (
                      <span className="text-slate-500">Console</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {log.hasNextPage ? (
          <div className="border-t border-slate-100 px-4 py-2 dark:border-slate-800">
            <Button size="sm" busy={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
              Older entries
            </Button>
          </div>
        ) : null}
      </section>
    </div>
  );
}

/** A text filter applied on Enter or when the field loses focus, so typing does not refetch per key. */
function FilterField({
  label,
  value,
  onCommit,
}: {
  label: string;
  value: string | undefined;
  onCommit: (value: string) => void;
}) {
  const [draft, setDraft] = useState(value ?? '');
  const [shownFor, setShownFor] = useState(value);
  if (shownFor !== value) {
    setShownFor(value);
    setDraft(value ?? '');
  }
  return (
    <label className="text-sm">
      {label}
      <input
        className={FIELD}
        value={draft}
        maxLength={200}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => draft !== (value ?? '') && onCommit(draft)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onCommit(draft);
          }
        }}
      />
    </label>
  );
}
