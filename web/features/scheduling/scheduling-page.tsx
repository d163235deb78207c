// Scheduling (OACoP §3): propose a meeting to the directory's calendar agents and rooms, and the
// threads so far, newest activity first, live.
import { useQuery } from '@tanstack/react-query';
import { LongText } from '@web/components/ui/long-text';
import { displayText } from '@web/lib/display-text';
import { Link } from '@tanstack/react-router';
import { Notice } from '@web/components/ui/notice';
import { directoryQuery } from '@web/lib/api/agora-agents';
import { schedulingThreadsQuery } from '@web/lib/api/scheduling-threads';
import { oacopAgents } from '@web/lib/oacop/oacop-directory';
import { useNames } from '@web/lib/names/use-names';
import { browserTimeZone } from '@web/lib/oacop/zone-labels';
import { slotInZoneWords } from '@web/lib/oacop/slot-words';
import { useNow } from '@web/lib/use-now';
import { ProposeForm } from './propose-form';
import { errorInWords } from '@web/lib/api/error-words';

export function SchedulingPage() {
  const threads = useQuery(schedulingThreadsQuery);
  const directory = useQuery(directoryQuery);
  const agents = oacopAgents(directory.data ?? []);
  const { nameOf } = useNames();
  const zone = browserTimeZone();
  const now = useNow(60_000);
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Scheduling</h1>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <ProposeForm key={agents.length} agents={agents} />
        <section aria-labelledby="threads">
          <h2 id="threads" className="text-base font-semibold">
            Threads
          </h2>
          {threads.isError ? (
            <Notice tone="error" title="Threads could not be read">
              {errorInWords(threads.error)}
            </Notice>
          ) : null}
          {threads.data?.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">
              No meeting proposed yet. Propose one above: the participants answer with their free time, and you book the
              best common slot.
            </p>
          ) : null}
          <ul className="mt-2 space-y-2">
            {threads.data?.map((t) => (
              <li
                key={t.threadId}
                data-testid="scheduling-thread"
                className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm dark:border-slate-800 dark:bg-slate-900"
              >
                <Link
                  to="/scheduling/$threadId"
                  params={{ threadId: t.threadId }}
                  className="font-medium text-teal-700 hover:underline dark:text-teal-300"
                >
                  <LongText text={t.title ?? 'Untitled meeting'} />
                </Link>
                <span className="ml-2 text-slate-500 dark:text-slate-400">
                  {t.status} · revision {t.revision} · {t.participants.length} invited
                </span>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {t.finalSlot
                    ? slotInZoneWords(t.finalSlot, zone, now)
                    : `${t.participants.filter((p) => p.phase !== 'INVITED').length} of ${t.participants.length} answered`}{' '}
                  · <LongText text={t.participants.map((p) => displayText(nameOf(p.did))).join(', ')} />
                </p>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
