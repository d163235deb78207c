// A room's last hour at a glance (GET /api/rooms/{id}/health): messages per minute, approved
// against rejected by reason, how long the review queue has waited, the mics' budgets burning
// down (the grants panel's own query and meter), and the agents with rejects, most first.
import { TaskName } from '@web/components/task-name';
import { useQuery } from '@tanstack/react-query';
import { BarChart, type Bar } from '@web/components/charts/bar-chart';
import { roomHealthQuery, type RoomHealth } from '@web/lib/api/agent-accounts';
import { activeGrantsQuery } from '@web/lib/api/rooms-grants';
import { clockTime, rejectReasonInWords, roomErrorInWords } from '@web/lib/room-words';
import { useNow } from '@web/lib/use-now';
import { useMemo } from 'react';
import { GrantMeter } from './grant-meter';
import { HealthAgents } from './health-agents';
import { decisionsInWords, queueInWords, reasonLabel, trafficInWords } from './health-words';

const minute = (at: number) => clockTime(at).slice(0, 5);

function Charts({ health }: { health: RoomHealth }) {
  const { traffic, busy, decisions, decided } = useMemo(() => {
    const traffic: Bar[] = health.perMinute.map((m) => ({ label: minute(m.at), value: m.messages, tone: 'neutral' }));
    const { approved, rejected } = health.decisions;
    return {
      traffic,
      busy: traffic.filter((b) => b.value > 0),
      decisions: [
        { label: 'approved', value: approved, tone: 'ok' as const },
        ...rejected.map((r) => ({ label: reasonLabel(r.reason), value: r.count, tone: 'bad' as const })),
      ],
      decided: [
        { label: 'approved', value: approved },
        ...rejected.map((r) => ({ label: `rejected: ${rejectReasonInWords(r.reason)}`, value: r.count })),
      ],
    };
  }, [health]);
  return (
    <div className="grid gap-4">
      <BarChart
        title="Messages per minute, last hour (UTC)"
        summary={trafficInWords(health.perMinute)}
        bars={traffic}
        rows={busy}
        columns={['Minute (UTC)', 'Messages']}
        labelEvery={15}
        testId="health-traffic"
      />
      <BarChart
        title="Candidates approved and rejected by reason, last hour"
        summary={decisionsInWords(health.decisions)}
        bars={decisions}
        rows={decided}
        columns={['Decision', 'Candidates']}
        layout="stacked"
        testId="health-decisions"
      />
    </div>
  );
}

export function HealthPanel({ roomId, canFacilitate }: { roomId: string; canFacilitate: boolean }) {
  const health = useQuery(roomHealthQuery(roomId));
  const grants = useQuery(activeGrantsQuery(roomId));
  const now = useNow(1_000);
  return (
    <section
      aria-labelledby="health-heading"
      className="rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      data-testid="health-panel"
    >
      <h2
        id="health-heading"
        className="border-b border-slate-200 px-4 py-2 text-sm font-semibold dark:border-slate-800"
      >
        Room health <span className="font-normal text-slate-500 dark:text-slate-400">· last hour</span>
      </h2>
      {health.isError ? (
        <p className="px-4 py-3 text-sm text-rose-700 dark:text-rose-300">{roomErrorInWords(health.error)}</p>
      ) : !health.data ? (
        <p className="px-4 py-3 text-sm text-slate-500 dark:text-slate-400">Loading…</p>
      ) : (
        <div className="space-y-4 px-4 py-3">
          <Charts health={health.data} />
          <p className="text-sm" data-testid="health-queue">
            {queueInWords(health.data.reviewQueue, health.data.now + (now - health.dataUpdatedAt))}
          </p>
          {grants.data?.length ? (
            <div>
              <h3 className="text-xs font-medium text-slate-600 dark:text-slate-300">Mic budgets</h3>
              <ul>
                {grants.data.map((g) => (
                  <li key={`${g.agentId}/${g.taskId}`} className="mt-1 min-w-0 text-xs">
                    <p className="truncate">
                      <span className="font-medium">{g.agentId}</span>{' '}
                      <TaskName
                        roomId={roomId}
                        taskId={g.taskId}
                        plain
                        className="text-slate-600 dark:text-slate-400"
                      />
                    </p>
                    <GrantMeter grant={g} now={now} compact />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div>
            <h3 className="text-xs font-medium text-slate-600 dark:text-slate-300">Agents by rejects</h3>
            <HealthAgents roomId={roomId} agents={health.data.agents} canFacilitate={canFacilitate} />
          </div>
        </div>
      )}
    </section>
  );
}
