// Tasks (OACoP §4): the board by status and the tree by parentTaskId, live; a blocked task names
// what blocks it; assign a task to an agent (AssignTask signed in this browser).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import type { TaskNode, TaskView } from '@shared/contract/console';
import { CodedError } from '@shared/errors';
import { directoryQuery } from '@web/lib/api/agora-agents';
import { tasksBoardQuery } from '@web/lib/api/tasks-board';
import { operatorDid } from '@web/lib/identity/sign-agora-envelope';
import { nameOf, oacopAgents, type OacopAgent } from '@web/lib/oacop/oacop-directory';
import { oacopErrorWords } from '@web/lib/oacop/oacop-words';
import { sendCarriers } from '@web/lib/oacop/send-carriers';
import { useState, type FormEvent } from 'react';
import { buildAssignTask } from './assign-task';
import { errorInWords } from '@web/lib/api/error-words';

const COLUMNS = ['ASSIGNED', 'ACCEPTED', 'IN_PROGRESS', 'BLOCKED', 'COMPLETED', 'DECLINED'] as const;
const WORDS: Record<string, string> = {
  ASSIGNED: 'Assigned',
  ACCEPTED: 'Accepted',
  IN_PROGRESS: 'In progress',
  BLOCKED: 'Blocked',
  COMPLETED: 'Completed',
  DECLINED: 'Declined',
};

export function TasksPage() {
  const board = useQuery(tasksBoardQuery);
  const directory = useQuery(directoryQuery);
  const me = useQuery({ queryKey: ['identity', 'operator-did'], queryFn: () => operatorDid() });
  const agents = oacopAgents(directory.data ?? []);
  const tasks = board.data?.tasks ?? [];
  const byId = new Map(tasks.map((t) => [t.threadId, t]));
  const title = (id: string) => byId.get(id)?.object.title ?? id;
  const name = (did: string) => nameOf(agents, did, me.data);
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Tasks</h1>
      {board.isError ? (
        <Notice tone="error" title="The board could not be read">
          {errorInWords(board.error)}
        </Notice>
      ) : null}
      <AssignForm agents={agents.filter((a) => a.kind === 'person')} tasks={tasks} />
      <section aria-labelledby="board">
        <h2 id="board" className="text-base font-semibold">
          Board
        </h2>
        {board.data?.dependencyError ? (
          <Notice tone="warn" title="Dependency cycle">
            {board.data.dependencyError.message}
          </Notice>
        ) : null}
        {board.data && tasks.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            No tasks yet. Assign one above: it is signed with your key and sent to the agent, whose answers move it
            across the board. When the server runs its demo, Ada and Bruno take tasks.
          </p>
        ) : null}
        <div className="mt-2 grid gap-3 sm:grid-cols-3 xl:grid-cols-6">
          {COLUMNS.map((col) => (
            <div
              key={col}
              data-testid="task-column"
              data-status={col}
              className="rounded-lg border border-slate-200 bg-slate-50 p-2 dark:border-slate-800 dark:bg-slate-900/60"
            >
              <h3 className="text-sm font-medium text-slate-600 dark:text-slate-300">
                {WORDS[col]} <span className="text-slate-400">{board.data?.columns[col]?.length ?? 0}</span>
              </h3>
              <ul className="mt-2 space-y-2">
                {(board.data?.columns[col] ?? []).map((id) => {
                  const t = byId.get(id);
                  return t ? <TaskCard key={id} task={t} title={title} name={name} /> : null;
                })}
              </ul>
            </div>
          ))}
        </div>
      </section>
      <section aria-labelledby="tree">
        <h2 id="tree" className="text-base font-semibold">
          Tree
        </h2>
        {board.data?.treeError ? (
          <Notice tone="warn" title="Parent cycle">
            {board.data.treeError.message}
          </Notice>
        ) : null}
        <ul className="mt-2 text-sm" data-testid="task-tree">
          {(board.data?.tree ?? []).map((node) => (
            <TreeNode key={node.task.threadId} node={node} name={name} />
          ))}
        </ul>
      </section>
    </div>
  );
}

function TaskCard({
  task,
  title,
  name,
}: {
  task: TaskView;
  title: (id: string) => string;
  name: (did: string) => string;
}) {
  return (
    <li
      data-testid="task-card"
      data-task={task.threadId}
      data-status={task.status}
      data-blocked={task.blocked ? 'true' : 'false'}
      className={`rounded-md border bg-white p-2 text-sm dark:bg-slate-950 ${task.blocked ? 'border-amber-400 dark:border-amber-600' : 'border-slate-200 dark:border-slate-700'}`}
    >
      <p className="font-medium break-words" data-testid="task-title">
        {task.object.title ?? 'Untitled task'}
      </p>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {name(task.worker)} · due {task.deadline.replace('T', ' ').replace(':00Z', ' UTC')}
      </p>
      <div
        className="mt-1 h-1.5 rounded bg-slate-200 dark:bg-slate-800"
        role="progressbar"
        aria-label={`Progress of ${task.object.title ?? 'task'}`}
        aria-valuenow={task.progress}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className="h-full rounded bg-teal-600 dark:bg-teal-400"
          style={{ width: `${Math.max(0, Math.min(100, task.progress))}%` }}
        />
      </div>
      <p className="mt-1 text-xs tabular-nums" data-testid="task-progress">
        {task.progress}%
      </p>
      {task.blocked ? (
        <p className="mt-1 text-xs text-amber-800 dark:text-amber-300" data-testid="task-blocked-by">
          Blocked by {task.blockedBy.map(title).join(', ')}
        </p>
      ) : null}
      {task.comment ? (
        <p className="mt-1 text-xs break-words text-slate-600 dark:text-slate-400" data-testid="task-comment">
          {task.comment}
        </p>
      ) : null}
      {task.lastError ? (
        <p className="mt-1 text-xs text-rose-700 dark:text-rose-300">
          {task.lastError.code}: {oacopErrorWords(task.lastError.code, task.lastError.message)}
        </p>
      ) : null}
    </li>
  );
}

function TreeNode({ node, name }: { node: TaskNode; name: (did: string) => string }) {
  const t = node.task;
  return (
    <li className="ml-4 list-disc py-0.5" data-testid="task-tree-node">
      <span className="font-medium">{t.object.title ?? 'Untitled task'}</span>{' '}
      <span className="text-slate-500 dark:text-slate-400">
        {WORDS[t.status] ?? t.status}
        {t.blocked ? ' (blocked)' : ''} · {t.progress}% · {name(t.worker)}
      </span>
      {node.children.length > 0 ? (
        <ul>
          {node.children.map((c) => (
            <TreeNode key={c.task.threadId} node={c} name={name} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function AssignForm({ agents, tasks }: { agents: readonly OacopAgent[]; tasks: readonly TaskView[] }) {
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
        <TextField label="Task title" value={title} onChange={(e) => setTitle(e.target.value)} />
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
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <TextField
          label="Deadline (UTC)"
          type="datetime-local"
          value={deadline}
          onChange={(e) => setDeadline(e.target.value)}
        />
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
                {t.object.title ?? t.threadId}
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
              <label key={t.threadId} className="inline-flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={deps.includes(t.threadId)}
                  onChange={(e) =>
                    setDeps(e.target.checked ? [...deps, t.threadId] : deps.filter((d) => d !== t.threadId))
                  }
                />
                {t.object.title ?? t.threadId}
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
      <Button type="submit" variant="primary" busy={assign.isPending} disabled={assign.isPending}>
        Sign and assign
      </Button>
    </form>
  );
}
