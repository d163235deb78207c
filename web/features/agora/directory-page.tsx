// The agent directory (OSNAP GET /agents, fed by Agora capability manifests): search by
// capability or intent, filter by presence, and send a REQUEST from an agent's card. Long
// directories are virtualised, so only the cards in view are in the DOM. Below them, the A2A
// agents imported by their Agent Card URL, matched by the same search (imported-agents.tsx).
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { directoryQuery, type DirectoryEntry } from '@web/lib/api/agora-agents';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { useId, useMemo, useRef, useState } from 'react';
import { AgentCard } from './agent-card';
import { filterDirectory, matchingTools, type PresenceFilter } from './directory-search';
import { ImportedAgents } from './imported-agents';
import { RequestDialog } from './request-dialog';
import { useNow } from '@web/lib/use-now';
import { errorInWords } from '@web/lib/api/error-words';

const PRESENCE_OPTIONS: readonly { value: PresenceFilter; label: string }[] = [
  { value: 'any', label: 'Any presence' },
  { value: 'online', label: 'Online' },
  { value: 'stale', label: 'Stale' },
  { value: 'offline', label: 'Offline' },
  { value: 'unknown', label: 'Never seen' },
];

export function DirectoryPage() {
  const agents = useQuery(directoryQuery);
  const facilitator = canAct(useSession());
  const [text, setText] = useState('');
  const [presence, setPresence] = useState<PresenceFilter>('any');
  const [requesting, setRequesting] = useState<{ agent: DirectoryEntry; tool: string } | null>(null);
  const now = useNow(5_000);
  const searchId = useId();
  const presenceId = useId();
  const shown = useMemo(() => filterDirectory(agents.data ?? [], { text, presence }), [agents.data, text, presence]);

  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-semibold tracking-tight">Agent directory</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Agents that registered a signed capability manifest with the relay.{' '}
        {facilitator
          ? 'Send one a request from its card: you sign it with your own key.'
          : 'Observers can browse; facilitators send requests.'}
      </p>
      <div className="mt-5 flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <label htmlFor={searchId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Search by capability or intent
          </label>
          <input
            id={searchId}
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="translation, weather, book a room…"
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
          />
        </div>
        <div>
          <label htmlFor={presenceId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Presence
          </label>
          <select
            id={presenceId}
            value={presence}
            onChange={(e) => setPresence(e.target.value as PresenceFilter)}
            className="mt-1 block rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
          >
            {PRESENCE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="mt-5">
        {agents.isPending ? (
          <p role="status" className="text-sm text-slate-500">
            Loading the directory…
          </p>
        ) : agents.isError ? (
          <Notice
            tone="error"
            title="Cannot read the directory"
            action={<Button onClick={() => void agents.refetch()}>Try again</Button>}
          >
            {errorInWords(agents.error)}
          </Notice>
        ) : agents.data.length === 0 ? (
          <Notice tone="info" title="No agents registered yet">
            Agents register by posting a signed directory.register REQUEST to POST /agents (see the README). With the
            demo on, three demo agents appear here.
          </Notice>
        ) : (
          <>
            <p role="status" className="mb-2 text-sm text-slate-600 dark:text-slate-400" data-testid="directory-count">
              {shown.length === agents.data.length
                ? `${shown.length} ${shown.length === 1 ? 'agent' : 'agents'}`
                : `${shown.length} of ${agents.data.length} agents match`}
            </p>
            {shown.length === 0 ? (
              <Notice tone="info" title="No agent matches">
                Try another word, or set presence to “Any presence”.
              </Notice>
            ) : (
              <AgentList
                agents={shown}
                text={text}
                now={now}
                onRequest={facilitator ? (agent, tool) => setRequesting({ agent, tool }) : undefined}
              />
            )}
          </>
        )}
      </div>
      <ImportedAgents text={text} facilitator={facilitator} />
      {requesting ? (
        <RequestDialog agent={requesting.agent} initialTool={requesting.tool} onClose={() => setRequesting(null)} />
      ) : null}
    </div>
  );
}

interface AgentListProps {
  readonly agents: readonly DirectoryEntry[];
  readonly text: string;
  readonly now: number;
  readonly onRequest: ((agent: DirectoryEntry, tool: string) => void) | undefined;
}

/** Up to this many cards the page scrolls as usual; beyond it only the cards in view are rendered. */
export const VIRTUALIZE_FROM = 30;

function AgentList(props: AgentListProps) {
  if (props.agents.length >= VIRTUALIZE_FROM) return <VirtualAgentList {...props} />;
  const { agents, text, now, onRequest } = props;
  return (
    <ul aria-label="Agents" className="space-y-3" data-testid="directory-list">
      {agents.map((agent) => (
        <li key={agent.agent_id}>
          <AgentCard
            agent={agent}
            now={now}
            matched={matchingTools(agent, text)}
            onRequest={onRequest ? (tool) => onRequest(agent, tool) : undefined}
          />
        </li>
      ))}
    </ul>
  );
}

function VirtualAgentList({ agents, text, now, onRequest }: AgentListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // The compiler skips memoizing this component; nothing memoized below reads the virtualizer.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: agents.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 240,
    overscan: 3,
    getItemKey: (i) => agents[i]!.agent_id,
  });
  return (
    <div ref={scroller} className="max-h-[75vh] overflow-auto" data-testid="directory-list" data-virtualized="true">
      <ul aria-label="Agents" className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const agent = agents[item.index]!;
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="absolute left-0 top-0 w-full pb-3"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <AgentCard
                agent={agent}
                now={now}
                matched={matchingTools(agent, text)}
                onRequest={onRequest ? (tool) => onRequest(agent, tool) : undefined}
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
