// An empty room says how an agent joins it (AOR: over MQTT with a credential, then a heartbeat on
// the room's heartbeat topic) and, for a facilitator, makes the credential right here.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { heartbeatTopic } from '@shared/aor/topics';
import { Button } from '@web/components/ui/button';
import { NewAgentDialog } from '@web/components/agents/new-agent-dialog';
import { agentAccountPageQuery } from '@web/lib/api/agent-accounts';
import { canAct, useSession } from '@web/lib/identity/use-session';

export function ConnectAnAgent({ roomId }: { roomId: string }) {
  const session = useSession();
  const [creating, setCreating] = useState(false);
  const mqttUrl = useQuery({
    ...agentAccountPageQuery({ limit: 1 }),
    refetchInterval: false,
    select: (list) => list.mqttUrl,
  });
  const code = 'rounded bg-slate-100 px-1 font-mono text-xs break-all dark:bg-slate-800';
  return (
    <div className="space-y-2 px-4 py-3 text-sm text-slate-600 dark:text-slate-400" data-testid="connect-an-agent">
      <p>
        No agent is in this room yet. An agent joins by connecting over MQTT to{' '}
        {mqttUrl.data ? <code className={code}>{mqttUrl.data}</code> : 'this server'} with its credential, then sending
        a heartbeat on <code className={code}>{heartbeatTopic(roomId, '<agentId>')}</code>.
      </p>
      {canAct(session) ? (
        <>
          <Button size="sm" onClick={() => setCreating(true)}>
            Create a credential
          </Button>
          <NewAgentDialog open={creating} onOpenChange={setCreating} />
        </>
      ) : null}
    </div>
  );
}
