// The health panel's agents, most rejects first, each with Suspend one click away for a
// facilitator (a dialog asks the reason), and Resume once suspended.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { AGENT_ACCOUNTS_KEY, resumeAgent, type RoomHealth } from '@web/lib/api/agent-accounts';
import { roomErrorInWords } from '@web/lib/room-words';
import { useState } from 'react';
import { SuspendAgentDialog } from './suspend-agent-dialog';

export function HealthAgents({
  roomId,
  agents,
  canFacilitate,
}: {
  roomId: string;
  agents: RoomHealth['agents'];
  canFacilitate: boolean;
}) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<string | null>(null);
  // What this console just did shows at once; the next health answer says the same.
  const [changed, setChanged] = useState<ReadonlyMap<string, boolean>>(new Map());
  const refresh = (agentId: string, suspended: boolean) => {
    setChanged((old) => new Map(old).set(agentId, suspended));
    void queryClient.invalidateQueries({ queryKey: ['rooms', roomId, 'health'] });
    void queryClient.invalidateQueries({ queryKey: AGENT_ACCOUNTS_KEY });
  };
  const resume = useMutation({ mutationFn: resumeAgent, onSuccess: (_a, agentId) => refresh(agentId, false) });

  if (agents.length === 0)
    return <p className="text-sm text-slate-500 dark:text-slate-400">No agent was rejected in the last hour.</p>;
  return (
    <>
      <ol className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Agents by rejects">
        {agents.map((a) => {
          const suspended = changed.get(a.agentId) ?? a.suspended;
          return (
            <li key={a.agentId} className="flex items-center gap-2 py-1.5 text-sm" data-testid="health-agent">
              <span className="min-w-0 flex-1 truncate font-medium">{a.agentId}</span>
              <span className="tabular-nums text-rose-700 dark:text-rose-300">
                {a.rejects} {a.rejects === 1 ? 'reject' : 'rejects'}
              </span>
              {suspended ? (
                <>
                  <span className="rounded bg-amber-100 px-1.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">
                    Suspended
                  </span>
                  {canFacilitate ? (
                    <Button
                      size="sm"
                      busy={resume.isPending && resume.variables === a.agentId}
                      onClick={() => resume.mutate(a.agentId)}
                      aria-label={`Resume ${a.agentId}`}
                    >
                      Resume
                    </Button>
                  ) : null}
                </>
              ) : canFacilitate ? (
                <Button size="sm" onClick={() => setAsking(a.agentId)} aria-label={`Suspend ${a.agentId}`}>
                  Suspend
                </Button>
              ) : null}
            </li>
          );
        })}
      </ol>
      {resume.isError ? (
        <p role="alert" className="text-xs text-rose-700 dark:text-rose-300">
          Resume failed: {roomErrorInWords(resume.error)}
        </p>
      ) : null}
      <SuspendAgentDialog agentId={asking} onClose={() => setAsking(null)} onSuspended={(id) => refresh(id, true)} />
    </>
  );
}
