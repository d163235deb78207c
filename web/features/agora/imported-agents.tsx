// The directory's imported A2A agents (decisions-mcp.md §9–§11): the form that imports one by its
// Agent Card URL (facilitators; observers see it disabled), and the imported agents the
// directory's search matches, each marked "Imported".
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { MAX_CARD_URL_LENGTH } from '@shared/contract/directory-imports';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { IMPORTS_KEY, importAgent, importedAgentsQuery } from '@web/lib/api/directory-imports';
import { errorInWords } from '@web/lib/api/error-words';
import { displayText } from '@web/lib/display-text';
import { matchesCard } from './directory-search';
import { ImportedAgentCard } from './imported-agent-card';

export function ImportedAgents({ text, facilitator }: { text: string; facilitator: boolean }) {
  const imports = useQuery(importedAgentsQuery);
  const headingId = useId();
  const shown = (imports.data?.imports ?? []).filter((a) => matchesCard(a, text));
  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="text-lg font-semibold">
        Imported A2A agents
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Agents that speak A2A elsewhere, imported by the URL of their Agent Card. They are listed with what their card
        says; they did not register with this relay, so they have no presence here and are reached the A2A way.
      </p>
      <ImportForm facilitator={facilitator} />
      <div className="mt-4">
        {imports.isPending ? (
          <p role="status" className="text-sm text-slate-500">
            Loading imported agents…
          </p>
        ) : imports.isError ? (
          <Notice
            tone="error"
            title="Cannot list the imported agents"
            action={<Button onClick={() => void imports.refetch()}>Try again</Button>}
          >
            {errorInWords(imports.error)}
          </Notice>
        ) : imports.data.imports.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No A2A agent imported yet.</p>
        ) : shown.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            None of the {imports.data.imports.length} imported agents matches the search.
          </p>
        ) : (
          <ul aria-label="Imported agents" className="space-y-3" data-testid="imported-list">
            {shown.map((agent) => (
              <li key={agent.id}>
                <ImportedAgentCard agent={agent} facilitator={facilitator} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function ImportForm({ facilitator }: { facilitator: boolean }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const add = useMutation({
    mutationFn: importAgent,
    onSuccess: () => {
      setUrl('');
      void queryClient.invalidateQueries({ queryKey: IMPORTS_KEY });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (facilitator && url.trim()) add.mutate(url.trim());
  };
  const done = add.data;
  const skills = done ? done.agent.card.skills.length : 0;
  return (
    <form
      onSubmit={submit}
      aria-label="Import an A2A agent"
      className="mt-4 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 className="text-base font-semibold">Import an A2A agent</h3>
      <div className="mt-2 flex flex-wrap items-end gap-3">
        <TextField
          className="min-w-0 flex-1 basis-64"
          label="Agent Card URL"
          hint="Where the agent publishes its card, often https://its-host/.well-known/agent-card.json. The server fetches it from a public address."
          required
          type="url"
          inputMode="url"
          maxLength={MAX_CARD_URL_LENGTH}
          placeholder="https://agent.example/.well-known/agent-card.json"
          value={url}
          disabled={!facilitator}
          onChange={(e) => {
            setUrl(e.target.value);
            if (add.isError) add.reset();
          }}
          aria-invalid={add.isError || undefined}
        />
        <Button type="submit" variant="primary" busy={add.isPending} disabled={!facilitator || !url.trim()}>
          Import agent
        </Button>
      </div>
      {add.isError ? (
        <p role="alert" data-testid="import-error" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
          Not imported: {errorInWords(add.error)}
        </p>
      ) : null}
      {!facilitator ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Only facilitators import agents; observers see the ones imported.
        </p>
      ) : null}
      {done && !add.isError ? (
        <p role="status" className="mt-2 text-sm text-emerald-800 dark:text-emerald-200" data-testid="import-done">
          {done.refreshed
            ? `Fetched the card of ${displayText(done.agent.name)} again: what is shown is its card as it is now.`
            : `Imported ${displayText(done.agent.name)}, with ${skills} ${skills === 1 ? 'skill' : 'skills'}.`}
        </p>
      ) : null}
    </form>
  );
}
