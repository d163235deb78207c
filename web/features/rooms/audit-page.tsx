// A room's audit log: who (by name, the id one click away), when, what in words, linked to the
// timeline message; older pages by `before`; exports of the audit log and the room history.
import { useTaskGoals } from '@web/lib/names/use-task-goals';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useParams, useRouter } from '@tanstack/react-router';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { roomAgentsQuery } from '@web/lib/api/rooms-agents';

import { When, useDisplayZone } from '@web/components/when';
import { roomAuditQuery } from '@web/lib/api/rooms-audit';
import { roomQuery } from '@web/lib/api/rooms-get';
import { RoomUnavailable } from './room-unavailable';

import { LongText } from '@web/components/ui/long-text';
import { displayText } from '@web/lib/display-text';
import { Name } from '@web/components/name';
import { useState } from 'react';
import { auditInWords, auditTarget, permalink } from './audit-words';
import { unnamedOperator } from '@shared/contract/operator-name';
import {
  auditColumns,
  MESSAGE_COLUMNS,
  download,
  exportFileName,
  fetchAllAudit,
  fetchAllMessages,
  toBlob,
  type ExportFormat,
} from './export';
import { roomErrorInWords } from '@web/lib/room-words';

function ExportButtons({ roomId }: { roomId: string }) {
  const taskWords = useTaskGoals(roomId);
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const run = async (what: 'history' | 'audit', format: ExportFormat) => {
    setBusy(`${what}-${format}`);
    setStatus(null);
    try {
      const name = exportFileName(roomId, what, format, new Date());
      if (what === 'history') {
        const rows = await fetchAllMessages(roomId);
        download(toBlob(rows, format, MESSAGE_COLUMNS), name);
        setStatus({ tone: 'ok', text: `Saved ${rows.length} messages as ${name}.` });
      } else {
        const rows = await fetchAllAudit(roomId);
        download(toBlob(rows, format, auditColumns(taskWords)), name);
        setStatus({ tone: 'ok', text: `Saved ${rows.length} audit entries as ${name}.` });
      }
    } catch (error) {
      setStatus({ tone: 'error', text: `Export failed: ${roomErrorInWords(error)}` });
    } finally {
      setBusy(null);
    }
  };
  return (
    <section
      aria-labelledby="export-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="export-heading" className="text-sm font-semibold">
        Export
      </h2>
      <div className="mt-2 flex flex-wrap gap-2">
        {(['audit', 'history'] as const).flatMap((what) =>
          (['json', 'csv'] as const).map((format) => (
            <Button
              key={`${what}-${format}`}
              size="sm"
              busy={busy === `${what}-${format}`}
              disabled={busy !== null}
              onClick={() => void run(what, format)}
            >
              {what === 'audit' ? 'Audit log' : 'Room history'} as {format.toUpperCase()}
            </Button>
          )),
        )}
      </div>
      {status ? (
        <p
          role={status.tone === 'error' ? 'alert' : 'status'}
          className={`mt-2 text-sm ${status.tone === 'error' ? 'text-rose-700 dark:text-rose-300' : 'text-emerald-700 dark:text-emerald-300'}`}
        >
          {status.text}
        </p>
      ) : null}
    </section>
  );
}

export function AuditPage() {
  const { roomId } = useParams({ from: '/console/rooms/$roomId/audit' });
  const room = useQuery(roomQuery(roomId));
  const audit = useInfiniteQuery(roomAuditQuery(roomId));
  // The room's agents name themselves in their presence: the naming service reads it from the cache.
  useQuery({ ...roomAgentsQuery(roomId), refetchInterval: false });
  const taskWords = useTaskGoals(roomId);
  const zone = useDisplayZone();
  const router = useRouter();
  const entries = audit.data?.pages.flat() ?? [];
  if (room.isError) return <RoomUnavailable roomId={roomId} error={room.error} />;

  return (
    <div className="mx-auto max-w-5xl">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Link
          to="/rooms/$roomId"
          params={{ roomId }}
          className="text-sm text-teal-700 hover:underline dark:text-teal-300"
        >
          ← {displayText(room.data?.name ?? roomId)}
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
        <span className="min-w-0 font-mono text-sm text-slate-500">{displayText(roomId)}</span>
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Every facilitator action in this room, newest first: tasks, grants, revocations and review decisions. This is
        the{' '}
        <Link
          to="/activity"
          search={{ room: roomId }}
          className="text-teal-700 underline underline-offset-2 dark:text-teal-300"
          data-testid="audit-in-activity"
        >
          activity log
        </Link>{' '}
        filtered to this room.
      </p>
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <section
          aria-labelledby="audit-heading"
          className="min-w-0 rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
        >
          <h2
            id="audit-heading"
            className="border-b border-slate-200 px-4 py-2 text-sm font-semibold dark:border-slate-800"
          >
            Actions{' '}
            <span className="font-normal text-slate-500">
              ({entries.length}
              {audit.hasNextPage ? '+' : ''})
            </span>
          </h2>
          {audit.isError ? (
            <div className="p-4">
              <Notice tone="error" title="The audit log did not load">
                {roomErrorInWords(audit.error)}
              </Notice>
            </div>
          ) : entries.length === 0 ? (
            <p className="px-4 py-3 text-sm text-slate-500 dark:text-slate-400">
              {audit.isPending ? 'Loading…' : 'No facilitator actions yet.'}
            </p>
          ) : (
            // On a phone each row stacks (when, who and the link on one line, what below it), so the
            // sentence keeps the width of the screen instead of a sliver between fixed columns.
            <table className="w-full text-left text-sm max-sm:block">
              <thead className="text-xs text-slate-500 max-sm:hidden dark:text-slate-400">
                <tr className="border-b border-slate-100 dark:border-slate-800">
                  <th className="px-4 py-1.5 font-medium">When</th>
                  <th className="whitespace-nowrap px-2 py-1.5 font-medium">Who</th>
                  <th className="px-2 py-1.5 font-medium">What</th>
                  <th className="px-4 py-1.5 font-medium">
                    <span className="sr-only">Timeline</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 max-sm:block dark:divide-slate-800">
                {entries.map((e) => {
                  const target = auditTarget(e);
                  const href = target ? permalink(roomId, target) : null;
                  return (
                    <tr key={e.id} data-testid="audit-entry" className="align-top max-sm:block max-sm:py-1.5">
                      <td className="whitespace-nowrap px-4 py-1.5 font-mono text-xs text-slate-500 max-sm:inline-block max-sm:py-0 max-sm:pr-2">
                        <When at={e.at} />
                      </td>
                      <td
                        className="whitespace-nowrap px-2 py-1.5 text-xs max-sm:inline-block max-sm:px-0 max-sm:py-0"
                        data-testid="audit-who"
                      >
                        <Name id={e.actorDid} fallback={e.actorName ?? unnamedOperator(e.actorDid)} />
                      </td>
                      <td className="px-2 py-1.5 max-sm:block max-sm:px-4 max-sm:py-0.5">
                        <LongText text={auditInWords(e, taskWords, zone)} preserveLines testId="audit-what" />
                      </td>
                      <td className="whitespace-nowrap px-4 py-1.5 text-xs max-sm:block max-sm:py-0">
                        {href ? (
                          <a
                            href={href}
                            className="text-teal-700 hover:underline dark:text-teal-300"
                            onClick={(ev) => {
                              if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
                              ev.preventDefault();
                              router.history.push(href);
                            }}
                          >
                            In timeline
                          </a>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          {audit.hasNextPage ? (
            <div className="border-t border-slate-100 px-4 py-2 dark:border-slate-800">
              <Button size="sm" busy={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
                Older actions
              </Button>
            </div>
          ) : null}
        </section>
        <ExportButtons roomId={roomId} />
      </div>
    </div>
  );
}
