// One directory entry: who the agent is (name, DID short form with copy), presence, pricing,
// tools with their SLA, and the OSNAP tools_query answered by the directory on request.
import { absolute } from '@web/lib/time-words';
import { useQuery } from '@tanstack/react-query';
import { LongText } from '@web/components/ui/long-text';
import { displayText } from '@web/lib/display-text';
import { Button } from '@web/components/ui/button';
import { CopyButton } from '@web/components/ui/copy-button';
import { StatusDot } from '@web/components/ui/status-dot';
import { agentToolsQuery } from '@web/lib/api/agora-agent-tools';
import type { DirectoryEntry } from '@web/lib/api/agora-agents';
import { shortDid } from '@web/lib/identity/did-short';
import { keyFingerprint } from '@web/lib/identity/did-display';
import { useState } from 'react';
import { presenceWords, pricingWords } from './agora-words';
import { relativeTime } from './relative-time';
import { errorInWords } from '@web/lib/api/error-words';

const PRESENCE_TONE = { online: 'ok', stale: 'warn', offline: 'down', unknown: 'idle' } as const;

export interface AgentCardProps {
  readonly agent: DirectoryEntry;
  readonly now: number;
  /** Tools the search matched, highlighted so the card says why it is listed. */
  readonly matched: readonly string[];
  /** Absent for observers, who act on nothing. */
  readonly onRequest?: ((tool: string) => void) | undefined;
}

export function AgentCard({ agent, now, matched, onRequest }: AgentCardProps) {
  const name = displayText(agent.agent_name ?? shortDid(agent.agent_id));
  const pricing = agent.manifest?.pricing as Record<string, unknown> | undefined;
  const tools = Object.entries(agent.tools).sort(([a], [b]) => a.localeCompare(b));
  const lastSeen = agent.presence.last_seen_at ? Date.parse(agent.presence.last_seen_at) : null;
  return (
    <article
      data-testid="agent-card"
      aria-label={name}
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h2 className="font-semibold">
            <LongText text={name} chars={200} />
          </h2>
          {agent.agent_description ? (
            <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">
              <LongText text={agent.agent_description} preserveLines />
            </p>
          ) : null}
          <p className="mt-1 flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
            {/* The key one click away, not in the reading (decisions-web.md §33). */}
            <span title={agent.agent_id} data-testid="agent-did">
              Its key: {keyFingerprint(agent.agent_id)}
            </span>
            <CopyButton text={agent.agent_id} label="Copy DID" />
          </p>
        </div>
        <div className="flex min-w-0 flex-col items-end gap-1 text-sm">
          <span data-testid="agent-presence">
            <StatusDot tone={PRESENCE_TONE[agent.presence.status]} label={presenceWords(agent.presence.status)} />
          </span>
          {lastSeen !== null && Number.isFinite(lastSeen) ? (
            <span className="text-xs text-slate-500 dark:text-slate-400">
              last seen{' '}
              <time dateTime={new Date(lastSeen).toISOString()} title={absolute(lastSeen)}>
                {relativeTime(lastSeen, now)}
              </time>
            </span>
          ) : null}
          <span className="text-xs text-slate-600 dark:text-slate-300" data-testid="agent-pricing">
            {pricingWords(pricing)}
          </span>
          {agent.scope === 'private' ? (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900 dark:bg-amber-900/40 dark:text-amber-100">
              Private
            </span>
          ) : null}
        </div>
      </div>
      <ul
        aria-label={`Tools of ${name}`}
        className="mt-3 divide-y divide-slate-100 rounded-md border border-slate-100 dark:divide-slate-800 dark:border-slate-800"
      >
        {tools.map(([tool, declaration]) => (
          <li
            key={tool}
            data-testid="agent-tool"
            className={`flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm ${matched.includes(tool) ? 'bg-teal-50 dark:bg-teal-950/40' : ''}`}
          >
            <span className="min-w-0 flex-1">
              <span className="font-mono text-xs font-medium">{displayText(tool)}</span>
              <span className="ml-2 text-slate-600 dark:text-slate-400">
                <LongText text={declaration.description} />
              </span>
              {declaration.request_format ? (
                <span className="block font-mono text-xs text-slate-500 dark:text-slate-400">
                  <LongText text={`params: ${Object.keys(declaration.request_format).join(', ') || 'none'}`} />
                </span>
              ) : null}
            </span>
            {declaration.SLA ? (
              <span className="text-xs text-slate-600 dark:text-slate-400">
                <LongText text={`SLA ${declaration.SLA}`} chars={80} />
              </span>
            ) : null}
            {onRequest ? (
              <Button size="sm" onClick={() => onRequest(tool)} aria-label={`Send a request for ${tool} to ${name}`}>
                Request…
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <ToolsQuery did={agent.agent_id} />
    </article>
  );
}

/** OSNAP §3.4: the tools_response the directory gives for this agent, fetched when asked. */
function ToolsQuery({ did }: { did: string }) {
  const [asked, setAsked] = useState(false);
  const tools = useQuery({ ...agentToolsQuery(did), enabled: asked });
  if (!asked) {
    return (
      <Button
        variant="link"
        size="sm"
        className="mt-2"
        onClick={() => setAsked(true)}
        title="Sends an OSNAP tools_query to the directory"
      >
        Ask which tools it offers
      </Button>
    );
  }
  return (
    <div className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="tools-response">
      {tools.isPending ? (
        <p role="status">Asking the directory…</p>
      ) : tools.isError ? (
        <p role="alert">The directory did not answer: {errorInWords(tools.error)}</p>
      ) : (
        <p>
          tools_response: {tools.data.payload.task_tools.length} task tools (
          {tools.data.payload.task_tools.map((t) => t.name).join(', ') || 'none'}),{' '}
          {tools.data.payload.information_tools.length} information tools (
          {tools.data.payload.information_tools.map((t) => t.name).join(', ') || 'none'}).
        </p>
      )}
    </div>
  );
}
