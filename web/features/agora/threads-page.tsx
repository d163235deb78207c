// Agora threads the relay holds, most recently updated first, with their state in words.
import { useQuery } from '@tanstack/react-query';
import { displayText } from '@web/lib/display-text';
import { Link } from '@tanstack/react-router';
import { THREAD_STATUSES } from '@shared/agora/thread-state';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { threadsQuery, type ThreadView } from '@web/lib/api/agora-threads';
import { bridgedThreadsQuery, type ExternalSource } from '@web/lib/api/external-services';
import { SourceBadge } from '@web/components/ui/source-badge';
import { useNames } from '@web/lib/names/use-names';
import { useSession } from '@web/lib/identity/use-session';
import { useId, useState } from 'react';
import { threadStatusWords, type ThreadEndingLike } from './agora-words';
import { relativeTime } from './relative-time';
import { useNow } from '@web/lib/use-now';
import { errorInWords } from '@web/lib/api/error-words';

/** What a row shows, common to the built-in relay's threads and bridged ones. */
interface RowThread {
  readonly id: string;
  readonly status: ThreadView['status'];
  readonly state: {
    readonly client?: string | undefined;
    readonly addressedTo?: string | undefined;
    /** What the REQUEST asks; the thread is named by it, its id in the title. */
    readonly intent?: string | undefined;
    readonly offers?: readonly unknown[] | undefined;
    readonly ended?: ThreadEndingLike | undefined;
  };
  readonly updatedAt: number;
  readonly untrusted?: number;
}

const STATUS_TONE: Record<string, string> = {
  PENDING: 'bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100',
  ACTIVE: 'bg-violet-100 text-violet-900 dark:bg-violet-900/40 dark:text-violet-100',
  COMPLETED: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100',
  ERROR: 'bg-rose-100 text-rose-900 dark:bg-rose-900/40 dark:text-rose-100',
};

export function ThreadsPage() {
  const session = useSession();
  const [status, setStatus] = useState<ThreadView['status'] | ''>('');
  const [mine, setMine] = useState(false);
  const threads = useQuery(
    threadsQuery({ ...(status ? { status } : {}), ...(mine && session ? { party: session.did } : {}) }),
  );
  // Threads bridged from external relays, each with its source.
  const bridged = useQuery(bridgedThreadsQuery);
  const external = (bridged.data ?? []).filter(
    (t) =>
      (!status || t.status === status) &&
      (!mine || !session || t.state.client === session.did || t.state.addressedTo === session.did),
  );
  const now = useNow(5_000);
  const statusId = useId();
  // Names from the naming service (decisions-web.md §29); the short DID where none is known.
  const { nameOf } = useNames();
  const party = (did: string | undefined) => (did === undefined ? '—' : nameOf(did));

  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-semibold tracking-tight">Threads</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Agora conversations through the relay: a REQUEST, the OFFERs it draws, one ACCEPT, and the RESULT.
      </p>
      <div className="mt-5 flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor={statusId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            State
          </label>
          <select
            id={statusId}
            value={status}
            onChange={(e) => setStatus(e.target.value as ThreadView['status'] | '')}
            className="mt-1 block rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
          >
            <option value="">Any state</option>
            {THREAD_STATUSES.filter((s) => s !== 'OPEN').map((s) => (
              <option key={s} value={s}>
                {threadStatusWords(s).label}
              </option>
            ))}
          </select>
        </div>
        <label className="flex items-center gap-2 pb-1.5 text-sm">
          <input type="checkbox" checked={mine} onChange={(e) => setMine(e.target.checked)} />
          Only threads I am part of
        </label>
      </div>
      <div className="mt-5">
        {threads.isPending ? (
          <p role="status" className="text-sm text-slate-500">
            Loading threads…
          </p>
        ) : threads.isError ? (
          <Notice
            tone="error"
            title="Cannot list threads"
            action={<Button onClick={() => void threads.refetch()}>Try again</Button>}
          >
            {errorInWords(threads.error)}
          </Notice>
        ) : threads.data.length === 0 && external.length === 0 ? (
          <Notice tone="info" title="No threads yet">
            Send a request from the agent directory, or let the demo concierge start one.
          </Notice>
        ) : (
          <ul
            aria-label="Threads"
            className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
          >
            {threads.data.map((thread) => (
              <ThreadRow key={thread.id} thread={thread} source={null} party={party} now={now} />
            ))}
            {external.map((thread) => (
              <ThreadRow
                key={`${thread.serviceId} ${thread.id}`}
                thread={thread}
                source={thread.source}
                party={party}
                now={now}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** One row, built-in (`source` null) or bridged from an external relay, linking to its thread. */
function ThreadRow({
  thread,
  source,
  party,
  now,
}: {
  thread: RowThread;
  source: ExternalSource | null;
  party: (did: string | undefined) => string;
  now: number;
}) {
  const words = threadStatusWords(thread.status, thread.state.ended);
  return (
    <li>
      <Link
        to="/threads/$threadId"
        params={{ threadId: thread.id }}
        search={source ? { source: source.id } : {}}
        data-testid="thread-row"
        data-thread-id={thread.id}
        className="flex flex-wrap items-center gap-x-5 gap-y-1 px-4 py-3 hover:bg-slate-50 focus-visible:bg-slate-50 dark:hover:bg-slate-800/60 dark:focus-visible:bg-slate-800/60"
      >
        <span
          className={`w-24 rounded-full px-2 py-0.5 text-center text-xs font-medium ${STATUS_TONE[thread.status] ?? 'bg-slate-100 dark:bg-slate-800'}`}
        >
          {words.label}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm" title={`Thread ${thread.id}`}>
            <SourceBadge name={source ? source.name : 'built-in'} down={source?.status.state === 'down'} />{' '}
            {/* Named by what it asks; the id is in the title (decisions-web.md §33). */}
            <span className="font-medium" data-testid="thread-intent">
              {thread.state.intent ? displayText(thread.state.intent) : 'A request'}
            </span>
          </span>
          <span className="block truncate text-xs text-slate-600 dark:text-slate-400" data-testid="thread-parties">
            {displayText(party(thread.state.client))} →{' '}
            {thread.state.addressedTo ? displayText(party(thread.state.addressedTo)) : 'any agent'}
            <span className="text-slate-500 dark:text-slate-500"> · {words.detail}</span>
            {thread.untrusted ? (
              <span className="font-medium text-rose-700 dark:text-rose-300"> · {thread.untrusted} unverified</span>
            ) : null}
          </span>
        </span>
        <span className="w-20 text-xs text-slate-600 dark:text-slate-400">
          {thread.state.offers?.length ?? 0} {thread.state.offers?.length === 1 ? 'offer' : 'offers'}
        </span>
        <span className="w-24 text-right text-xs text-slate-600 dark:text-slate-400">
          {relativeTime(thread.updatedAt, now)}
        </span>
      </Link>
    </li>
  );
}
