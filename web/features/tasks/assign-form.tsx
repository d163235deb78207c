// Assign a task to an OACoP agent (§4.1), signed in this browser: the title is counted against
// the shared line limit and a deadline in the past is refused before signing (decisions-web.md §26).
import { DayField } from '@web/components/ui/day-field';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TaskView } from '@shared/contract/console';
import { fitsLimit } from '@shared/contract/text-limits';
import { CodedError } from '@shared/errors';
import { Button } from '@web/components/ui/button';
import { CharCounter } from '@web/components/ui/char-counter';
import { LongText } from '@web/components/ui/long-text';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { displayText } from '@web/lib/display-text';
import type { OacopAgent } from '@web/lib/oacop/oacop-directory';
import { oacopErrorWords } from '@web/lib/oacop/oacop-words';
import { sendCarriers } from '@web/lib/oacop/send-carriers';
import { useState, type FormEvent } from 'react';
import { buildAssignTask } from './assign-task';

/** An <option> shows one line: long titles are cut there (the board shows them whole). */
const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}…` : text);

export function AssignForm({ agents, tasks }: { agents: readonly OacopAgent[]; tasks: readonly TaskView[] }) {
  const [title, setTitle] = useState('');
  const [worker, setWorker] = useState('');
  const [deadline, setDeadline] = useState(() => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 16));
  const [parent, setParent] = useState('');
  const [deps, setDeps] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const assign = useMutation({
    mutationFn: async (to: string) => {
      const built = buildAssignTask({
        threadId: `urn:uuid:${crypto.randomUUID()}`,
        title,
        deadline,
        ...(parent ? { parentTaskId: parent } : {}),
        dependencies: deps,
        now: Date.now(),
      });
      if (!built.ok) throw new CodedError(built.error.code, built.error.message, built.error.details);
      await sendCarriers(built.value, [to]);
    },
    onSuccess: () => {
      setTitle('');
      setDeps([]);
      setParent('');
    },
    onError: (e: unknown) => {
      const c = e as { code?: string; message?: string };
      setError(oacopErrorWords(c.code ?? 'ERROR', c.message));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['oacop', 'tasks'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const to = worker || agents[0]?.did;
    if (!to) return setError('No OACoP agent in the directory takes tasks.');
    // Checked before signing, so a refusal is said here and nothing is sent.
    const checked = buildAssignTask({ threadId: 'urn:uuid:check', title, deadline, dependencies: [], now: Date.now() });
    if (!checked.ok) return setError(checked.error.message);
    setError(null);
    assign.mutate(to);
  };
  const select =
    'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950';
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Assign a task"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 className="text-base font-semibold">Assign a task</h2>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <TextField
          label="Task title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          hint={<CharCounter kind="line" text={title.trim()} />}
        />
        <label className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Assign to
          <select
            aria-label="Assign to"
            value={worker || agents[0]?.did || ''}
            onChange={(e) => setWorker(e.target.value)}
            className={select}
          >
            {agents.map((a) => (
              <option key={a.did} value={a.did}>
                {displayText(a.name)}
              </option>
            ))}
          </select>
        </label>
        <DayField label="Deadline (UTC)" value={deadline} onChange={setDeadline} withTime />
        <label className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Parent task
          <select
            aria-label="Parent task"
            value={parent}
            onChange={(e) => setParent(e.target.value)}
            className={select}
          >
            <option value="">None</option>
            {tasks.map((t) => (
              <option key={t.threadId} value={t.threadId}>
                {clip(t.object.title ?? t.threadId)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {tasks.length > 0 ? (
        <fieldset className="text-sm">
          <legend className="font-medium text-slate-700 dark:text-slate-300">Depends on</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {tasks.map((t) => (
              <label key={t.threadId} className="inline-flex min-w-0 items-center gap-1">
                <input
                  type="checkbox"
                  checked={deps.includes(t.threadId)}
                  onChange={(e) =>
                    setDeps(e.target.checked ? [...deps, t.threadId] : deps.filter((d) => d !== t.threadId))
                  }
                />
                <LongText text={t.object.title ?? t.threadId} chars={80} />
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {error ? (
        <Notice tone="error" title="Not assigned">
          {error}
        </Notice>
      ) : null}
      <Button
        type="submit"
        variant="primary"
        busy={assign.isPending}
        disabled={assign.isPending || !fitsLimit('line', title.trim())}
      >
        Sign and assign
      </Button>
    </form>
  );
}
