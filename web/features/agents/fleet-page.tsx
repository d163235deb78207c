// /fleet: every agent with a broker credential (decisions-web.md §23): status (online with its
// connections, offline, suspended with the reason), rooms, last seen by the server's clock, grants
// with the budget left, rejects in the last hour. A table that becomes one card per agent on a
// narrow screen. Facilitators act on each agent (agent-actions.tsx) and add new ones; observers
// read. Not /agents, which is the server's OSNAP API.
import { TaskName } from '@web/components/task-name';
import { absolute } from '@web/lib/time-words';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { agentAccountsQuery, type AgentAccount } from '@web/lib/api/agent-accounts';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { AgentActions } from './agent-actions';
import { agentStatus, budgetWords, seenWords, statusWords, suspensionWords } from './agent-words';
import { BreakableId } from '@web/components/ui/breakable-id';
import { NewAgentDialog } from '@web/components/agents/new-agent-dialog';
import { errorInWords } from '@web/lib/api/error-words';

const STATUS_TONE = {
  online: 'text-emerald-700 dark:text-emerald-300',
  offline: 'text-slate-600 dark:text-slate-400',
  suspended: 'text-rose-700 dark:text-rose-300',
} as const;

/** A cell that is a labelled line of its card on a narrow screen. */
const CELL =
  'block px-4 py-1 align-top md:table-cell md:py-3 before:mr-2 before:text-xs before:font-medium before:text-slate-500 before:content-[attr(data-label)] md:before:content-none';

function AgentRow({ agent, now, facilitator }: { agent: AgentAccount; now: number; facilitator: boolean }) {
  const status = agentStatus(agent, now);
  const suspension = suspensionWords(agent, now);
  return (
    <tr
      data-testid="agent-row"
      data-agent={agent.agentId}
      id={`agent-${agent.agentId}`}
      className="block py-2 md:table-row md:py-0"
    >
      <th
        scope="row"
        className="block px-4 py-1 text-left align-top font-mono text-sm font-medium [overflow-wrap:break-word] md:table-cell md:py-3"
      >
        <BreakableId id={agent.agentId} />
        <Link
          to="/activity"
          search={{ target: agent.agentId }}
          className="block font-sans text-xs font-normal text-teal-700 hover:underline dark:text-teal-300"
          data-testid="agent-activity-link"
        >
          Activity
        </Link>
      </th>
      <td data-label="Status" className={CELL}>
        <span data-testid="agent-status" className={`text-sm ${STATUS_TONE[status.kind]}`}>
          {statusWords(status)}
        </span>
        {suspension ? (
          <span className="block max-w-xs text-xs text-slate-600 dark:text-slate-400" data-testid="agent-suspension">
            {suspension}
          </span>
        ) : null}
      </td>
      <td data-label="Rooms" className={CELL}>
        {agent.rooms.length === 0 ? (
          <span className="text-sm text-slate-500">—</span>
        ) : (
          <span className="inline-flex flex-wrap gap-x-2 text-sm">
            {agent.rooms.map((roomId) => (
              <Link
                key={roomId}
                to="/rooms/$roomId"
                params={{ roomId }}
                className="font-mono text-teal-700 [overflow-wrap:break-word] hover:underline dark:text-teal-300"
              >
                <BreakableId id={roomId} />
              </Link>
            ))}
          </span>
        )}
      </td>
      <td data-label="Last seen" className={`${CELL} text-sm whitespace-nowrap`}>
        {agent.lastSeenAt === null ? (
          seenWords(null, now)
        ) : (
          <time dateTime={new Date(agent.lastSeenAt).toISOString()} title={absolute(agent.lastSeenAt)}>
            {seenWords(agent.lastSeenAt, now)}
          </time>
        )}
      </td>
      <td data-label="Grants" className={`${CELL} text-sm`}>
        {agent.grants.length === 0 ? (
          <span className="text-slate-500">—</span>
        ) : (
          <ul className="inline-block md:block">
            {agent.grants.map((g) => (
              <li key={`${g.roomId}/${g.taskId}`}>
                <TaskName roomId={g.roomId} taskId={g.taskId} /> in{' '}
                <span className="font-mono text-xs">
                  <BreakableId id={g.roomId} />
                </span>
                : {budgetWords(g)}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td data-label="Rejects (1 h)" className={`${CELL} text-sm tabular-nums`}>
        {agent.rejectsLastHour}
      </td>
      {facilitator ? (
        <td className="block px-4 py-2 md:table-cell md:py-3">
          <AgentActions agent={agent} />
        </td>
      ) : null}
    </tr>
  );
}

export function FleetPage() {
  const session = useSession();
  const facilitator = canAct(session);
  const agents = useQuery(agentAccountsQuery);
  const [creating, setCreating] = useState(false);
  const data = agents.data;
  return (
    <div className="mx-auto max-w-7xl">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold">Agents</h1>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Broker credentials and what each agent is doing.
            {data ? (
              <>
                {' '}
                Agents connect to <code className="font-mono text-xs">{data.mqttUrl}</code>
                {data.broker === 'external' ? ' (an external broker)' : ''}.
              </>
            ) : null}
          </p>
        </div>
        {facilitator ? (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New agent
          </Button>
        ) : null}
      </div>
      {agents.isError ? (
        <Notice tone="error" title="Could not load the agents.">
          {errorInWords(agents.error)}
        </Notice>
      ) : !data ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : data.agents.length === 0 ? (
        <Notice tone="info" title="No agent has a credential yet.">
          {facilitator ? 'Create one with “New agent”.' : 'A facilitator creates agent credentials.'}
        </Notice>
      ) : (
        <div className="overflow-hidden rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
          <table aria-label="Agents" className="block w-full text-left md:table">
            <thead className="hidden text-xs whitespace-nowrap text-slate-600 md:table-header-group dark:text-slate-400">
              <tr>
                <th className="px-4 py-2 font-medium">Agent</th>
                <th className="px-4 py-2 font-medium">Status</th>
                <th className="px-4 py-2 font-medium">Rooms</th>
                <th className="px-4 py-2 font-medium">Last seen</th>
                <th className="px-4 py-2 font-medium">Grants</th>
                <th className="px-4 py-2 font-medium">Rejects (1 h)</th>
                {facilitator ? <th className="px-4 py-2 font-medium">Actions</th> : null}
              </tr>
            </thead>
            <tbody className="block divide-y divide-slate-100 md:table-row-group dark:divide-slate-800">
              {data.agents.map((agent) => (
                <AgentRow key={agent.agentId} agent={agent} now={data.now} facilitator={facilitator} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {facilitator ? <NewAgentDialog open={creating} onOpenChange={setCreating} /> : null}
    </div>
  );
}
