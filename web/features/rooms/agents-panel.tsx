import { useQuery } from '@tanstack/react-query';
import { TaskName } from '@web/components/task-name';
import { When } from '@web/components/when';
import { StatusDot } from '@web/components/ui/status-dot';
import { LongText } from '@web/components/ui/long-text';
import { displayText } from '@web/lib/display-text';
import { roomAgentsQuery } from '@web/lib/api/rooms-agents';
import { activeGrantsQuery, type Grant } from '@web/lib/api/rooms-grants';
import { ConnectAnAgent } from './connect-an-agent';
import { GrantMeter } from './grant-meter';
import { useNow } from '@web/lib/use-now';
import { roomErrorInWords } from '@web/lib/room-words';

const TONE = { online: 'ok', stale: 'warn', offline: 'down' } as const;

export function AgentsPanel({ roomId }: { roomId: string }) {
  const agents = useQuery(roomAgentsQuery(roomId));
  // The same query the grants panel keeps fresh, so each agent's current task and mic show here
  // too without another request.
  const grants = useQuery(activeGrantsQuery(roomId));
  const now = useNow(1_000);
  const grantsOf = (agentId: string): Grant[] => (grants.data ?? []).filter((g) => g.agentId === agentId);
  return (
    <section
      aria-labelledby="agents-heading"
      className="rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <h2
        id="agents-heading"
        className="border-b border-slate-200 px-4 py-2 text-sm font-semibold dark:border-slate-800"
      >
        Agents
      </h2>
      {agents.isError ? (
        <p className="px-4 py-3 text-sm text-rose-700 dark:text-rose-300">{roomErrorInWords(agents.error)}</p>
      ) : agents.isPending ? (
        <p className="px-4 py-3 text-sm text-slate-500 dark:text-slate-400">Loading…</p>
      ) : !agents.data.length ? (
        <ConnectAnAgent roomId={roomId} />
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {agents.data.map((a) => (
            <li key={a.agentId} className="px-4 py-2 text-sm" data-testid={`agent-${a.agentId}`}>
              <div className="flex items-center gap-2">
                <span className="min-w-0 flex-1 truncate font-medium">{displayText(a.agentId)}</span>
                <StatusDot tone={TONE[a.status]} label={a.status} />
              </div>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                last seen <When at={a.lastSeenAt} form="relative" />
              </p>
              {a.description ? (
                <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
                  <LongText text={a.description} testId="agent-description" />
                </p>
              ) : null}
              {grantsOf(a.agentId).map((g) => (
                <div key={g.taskId} className="mt-1" data-testid="agent-current-task">
                  <p className="text-xs text-slate-700 dark:text-slate-300">
                    On <TaskName roomId={roomId} taskId={g.taskId} /> with the mic
                  </p>
                  <GrantMeter grant={g} now={now} compact />
                </div>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
