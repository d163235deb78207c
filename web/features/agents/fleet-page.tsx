// /fleet: every agent with a broker credential (decisions-web.md §23): status (online with its
// connections, offline, suspended with the reason), rooms, last seen by the server's clock, grants
// with the budget left, rejects in the last hour. A table that becomes one card per agent on a
// narrow screen. Facilitators act on each agent (agent-actions.tsx) and add new ones; observers
// read. Pages of agents in id order, more on request, an id prefix to find one, and how many
// there are from the server's counts, never from the rows loaded (decisions-web.md §43). Not
// /agents, which is the server's OSNAP API.
import { TaskName } from '@web/components/task-name';
import { absolute } from '@web/lib/time-words';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Link, useLocation } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { isValidId } from '@shared/aor/ids';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { agentAccountsQuery, type AgentAccount } from '@web/lib/api/agent-accounts';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { AgentActions } from './agent-actions';
import { agentStatus, budgetWords, countWords, seenWords, statusWords, suspensionWords } from './agent-words';
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

/** The agent a `#agent-<id>` link names. */
function agentOfHash(hash: string): string | undefined {
  const id = hash.startsWith('agent-') ? decodeURIComponent(hash.slice('agent-'.length)) : '';
  return isValidId(id) ? id : undefined;
}

/** The id prefix the list asks for, once typing pauses; invalid text asks nothing. */
function useSearchTerm(typed: string): { term: string; invalid: boolean } {
  const trimmed = typed.trim();
  const invalid = trimmed !== '' && !isValidId(trimmed);
  const [term, setTerm] = useState(trimmed);
  useEffect(() => {
    if (invalid) return;
    const timer = setTimeout(() => setTerm(trimmed), 250);
    return () => clearTimeout(timer);
  }, [trimmed, invalid]);
  return { term, invalid };
}

export function FleetPage() {
  const session = useSession();
  const facilitator = canAct(session);
  // The palette links to an agent's row (#agent-<id>): it is found by its id, loaded or not.
  const linked = useLocation({ select: (l) => agentOfHash(l.hash) });
  const [typed, setTyped] = useState(linked ?? '');
  const [followed, setFollowed] = useState(linked);
  if (linked !== followed) {
    setFollowed(linked);
    if (linked !== undefined) setTyped(linked);
  }
  const { term, invalid } = useSearchTerm(typed);
  const agents = useInfiniteQuery({ ...agentAccountsQuery(term), placeholderData: keepPreviousData });
  const [creating, setCreating] = useState(false);
  const first = agents.data?.pages[0];
  const rows = agents.data?.pages.flatMap((p) => p.agents) ?? [];
  /** A new agent past the pages loaded is found by its id, so its row shows. */
  const showCreated = (agentId: string) => {
    const lastLoaded = rows.at(-1)?.agentId;
    if (agents.hasNextPage && lastLoaded !== undefined && agentId > lastLoaded) setTyped(agentId);
  };
  return (
    <div className="mx-auto max-w-7xl">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold">Agents</h1>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Broker credentials and what each agent is doing.
            {first ? (
              <>
                {' '}
                Agents connect to <code className="font-mono text-xs">{first.mqttUrl}</code>
                {first.broker === 'external' ? ' (an external broker)' : ''}.
              </>
            ) : null}
          </p>
          {first && first.counts.total > 0 ? (
            <p className="mt-1 text-sm font-medium" data-testid="agent-counts">
              {countWords(first.counts)}
            </p>
          ) : null}
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
      ) : !first ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : first.counts.total === 0 ? (
        <Notice tone="info" title="No agent has a credential yet.">
          {facilitator ? 'Create one with “New agent”.' : 'A facilitator creates agent credentials.'}
        </Notice>
      ) : (
        <>
          <form role="search" aria-label="Find an agent" className="mb-3 max-w-sm" onSubmit={(e) => e.preventDefault()}>
            <TextField
              label="Find by agent id"
              type="search"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              placeholder="The first characters of its id"
              autoComplete="off"
              spellCheck={false}
              maxLength={128}
              error={invalid ? 'An agent id has no spaces, “/”, “+” or “#”.' : undefined}
            />
          </form>
          {rows.length === 0 && term ? (
            <Notice tone="info" title={`No agent id starts with “${term}”.`}>
              Ids are matched from their first character, as typed.
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
                  {rows.map((agent) => (
                    <AgentRow key={agent.agentId} agent={agent} now={first.now} facilitator={facilitator} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div className="mt-3 flex flex-wrap items-center gap-3 text-sm text-slate-600 dark:text-slate-400">
            <p role="status" data-testid="agents-shown">
              {term
                ? `${rows.length}${agents.hasNextPage ? '+' : ''} whose id starts with “${term}”`
                : `Showing ${rows.length} of ${first.counts.total}`}
            </p>
            {agents.hasNextPage ? (
              <Button size="sm" busy={agents.isFetchingNextPage} onClick={() => void agents.fetchNextPage()}>
                Show more
              </Button>
            ) : null}
          </div>
        </>
      )}
      {facilitator ? <NewAgentDialog open={creating} onOpenChange={setCreating} onCreated={showCreated} /> : null}
    </div>
  );
}
