// One imported A2A agent (decisions-mcp.md §9–§11): marked "Imported", its name, description and
// skills in words, then where its card came from (a link that opens apart from the console, and a
// copy button), who imported it and when. Everything on the card was written by whoever serves
// it: it is rendered as text only, bidi controls made visible, the raw card behind a disclosure.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unnamedOperator } from '@shared/contract/operator-name';
import { Name } from '@web/components/name';
import { Button } from '@web/components/ui/button';
import { CopyButton } from '@web/components/ui/copy-button';
import { Dialog } from '@web/components/ui/dialog';
import { LongText } from '@web/components/ui/long-text';
import { When } from '@web/components/when';
import { IMPORTS_KEY, importAgent, removeImportedAgent, type ImportedAgentView } from '@web/lib/api/directory-imports';
import { errorInWords } from '@web/lib/api/error-words';
import { displayText } from '@web/lib/display-text';

/** The card's host, for the link's words; undefined when the URL is not http(s) (never shown as a link). */
export function cardHost(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : undefined;
  } catch {
    return undefined;
  }
}

/** Where the card says the agent is reached, in words: "over JSONRPC at https://…" (A2A 0.3's url, else 1.0's first interface). */
export function reachedAt(card: ImportedAgentView['card']): string | undefined {
  const first = card.supportedInterfaces?.[0];
  if (card.url) return `${card.preferredTransport ? `over ${card.preferredTransport} ` : ''}at ${card.url}`;
  return first ? `over ${first.protocolBinding} at ${first.url}` : undefined;
}

export function ImportedAgentCard({ agent, facilitator }: { agent: ImportedAgentView; facilitator: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: IMPORTS_KEY });
  const fetchAgain = useMutation({ mutationFn: () => importAgent(agent.url), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => removeImportedAgent(agent.id),
    onSuccess: () => {
      setConfirming(false);
      refresh();
    },
  });
  const { card } = agent;
  const name = displayText(card.name);
  const host = cardHost(agent.url);
  const reached = reachedAt(card);
  return (
    <article
      data-testid="imported-agent"
      aria-label={name}
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1">
          <h3 className="font-semibold">
            <LongText text={name} chars={200} />
          </h3>
          {card.description ? (
            <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">
              <LongText text={displayText(card.description)} preserveLines />
            </p>
          ) : null}
          {card.provider?.organization ? (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              By <LongText text={displayText(card.provider.organization)} chars={120} />
              {card.version ? <> · version {displayText(card.version)}</> : null}
            </p>
          ) : card.version ? (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Version {displayText(card.version)}</p>
          ) : null}
        </div>
        <span
          data-testid="imported-badge"
          title="An outside A2A agent, imported by its Agent Card; it did not register with this relay"
          className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-medium text-indigo-900 dark:bg-indigo-900/50 dark:text-indigo-100"
        >
          Imported
        </span>
      </div>

      {card.skills.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">Its card lists no skills.</p>
      ) : (
        <ul
          aria-label={`Skills of ${name}`}
          className="mt-3 divide-y divide-slate-100 rounded-md border border-slate-100 dark:divide-slate-800 dark:border-slate-800"
        >
          {card.skills.map((skill, i) => (
            <li key={`${i}-${skill.id}`} data-testid="imported-skill" className="px-3 py-2 text-sm">
              <span className="font-medium">
                <LongText text={displayText(skill.name)} chars={200} />
              </span>
              {skill.description ? (
                <span className="block text-slate-600 dark:text-slate-400">
                  <LongText text={displayText(skill.description)} />
                </span>
              ) : null}
              {skill.tags.length > 0 ? (
                <span className="mt-1 flex flex-wrap gap-1" aria-label="Tags">
                  {skill.tags.map((tag, j) => (
                    <span
                      key={`${j}-${tag}`}
                      className="max-w-full rounded bg-slate-100 px-1.5 py-0.5 text-xs [overflow-wrap:anywhere] text-slate-700 dark:bg-slate-800 dark:text-slate-300"
                    >
                      {displayText(tag)}
                    </span>
                  ))}
                </span>
              ) : null}
              {skill.examples?.length ? (
                <span className="mt-1 block text-xs text-slate-500 dark:text-slate-400">
                  For example: <LongText text={skill.examples.map((e) => `“${displayText(e)}”`).join(', ')} />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      <div className="mt-3 space-y-1 text-xs text-slate-600 dark:text-slate-400">
        {reached ? (
          <p data-testid="imported-reached">
            <LongText text={`Reached ${displayText(reached)}`} chars={200} />
          </p>
        ) : null}
        <p className="flex min-w-0 flex-wrap items-center gap-x-1">
          <span>Card from</span>
          {host ? (
            <a
              href={agent.url}
              target="_blank"
              rel="noopener noreferrer"
              title={agent.url}
              data-testid="imported-source"
              className="min-w-0 text-teal-700 underline underline-offset-2 [overflow-wrap:anywhere] dark:text-teal-300"
            >
              {host}
            </a>
          ) : (
            <span className="[overflow-wrap:anywhere]">{displayText(agent.url)}</span>
          )}
          <CopyButton text={agent.url} label="Copy card URL" />
        </p>
        <p data-testid="imported-by">
          Imported by <Name id={agent.importedBy} fallback={unnamedOperator(agent.importedBy)} />{' '}
          <When at={agent.importedAt} />
          {agent.lastFetchedAt !== agent.importedAt ? (
            <>
              ; card fetched again <When at={agent.lastFetchedAt} form="relative" />
            </>
          ) : null}
          .
        </p>
      </div>

      <details className="mt-2 text-xs">
        <summary className="cursor-pointer text-teal-700 dark:text-teal-300">The card as text</summary>
        <pre
          data-testid="imported-card-text"
          className="mt-1 max-h-80 overflow-auto rounded bg-slate-50 p-2 font-mono whitespace-pre-wrap [overflow-wrap:anywhere] dark:bg-slate-950"
        >
          {displayText(JSON.stringify(card, null, 2))}
        </pre>
      </details>

      {facilitator ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button size="sm" busy={fetchAgain.isPending} onClick={() => fetchAgain.mutate()}>
            Fetch the card again
          </Button>
          <Button size="sm" onClick={() => setConfirming(true)} aria-label={`Remove ${name} from the directory`}>
            Remove
          </Button>
        </div>
      ) : null}
      {fetchAgain.isError ? (
        <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
          The card was not fetched again, and the one shown stays: {errorInWords(fetchAgain.error)}
        </p>
      ) : null}
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove this imported agent?"
        description="It leaves the directory. The agent itself is not told; you can import it again from its card URL."
      >
        <p className="text-sm">
          <LongText text={name} chars={200} />
        </p>
        {remove.isError ? (
          <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
            {errorInWords(remove.error)}
          </p>
        ) : null}
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => setConfirming(false)}>Keep it</Button>
          <Button variant="primary" busy={remove.isPending} onClick={() => remove.mutate()}>
            Remove agent
          </Button>
        </div>
      </Dialog>
    </article>
  );
}
