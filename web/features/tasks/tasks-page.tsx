// Tasks (OACoP §4): the board by status and the tree by parentTaskId, live; a blocked task names
// what blocks it; assign a task to an agent (AssignTask signed in this browser).
import { useQuery } from '@tanstack/react-query';
import { LongText } from '@web/components/ui/long-text';
import { Notice } from '@web/components/ui/notice';
import type { TaskNode } from '@shared/contract/console';
import { directoryQuery } from '@web/lib/api/agora-agents';
import { tasksBoardQuery } from '@web/lib/api/tasks-board';
import { displayText } from '@web/lib/display-text';
import { oacopAgents } from '@web/lib/oacop/oacop-directory';
import { shortId } from '@web/lib/names/name-book';
import { taskName } from '@web/lib/names/item-names';
import { useNames } from '@web/lib/names/use-names';
import { AssignForm } from './assign-form';
import { TaskCard } from './task-card';
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
  const agents = oacopAgents(directory.data ?? []);
  const tasks = board.data?.tasks ?? [];
  const byId = new Map(tasks.map((t) => [t.threadId, t]));
  // Tasks by their goal's first words, people and agents by the naming service (decisions-web.md §29).
  const title = (id: string) => {
    const task = byId.get(id);
    return task ? taskName(task) : `Task ${shortId(id)}`;
  };
  const { nameOf: name } = useNames();
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
              className="min-w-0 rounded-lg border border-slate-200 bg-slate-50 p-2 dark:border-slate-800 dark:bg-slate-900/60"
            >
              <h3 className="text-sm font-medium text-slate-600 dark:text-slate-300">
                {WORDS[col]} <span className="text-slate-400">{board.data?.columns[col]?.length ?? 0}</span>
              </h3>
              <ul className="mt-2 space-y-2">
                {(board.data?.columns[col] ?? []).map((id) => {
                  const t = byId.get(id);
                  return t ? <TaskCard key={id} task={t} title={title} /> : null;
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

function TreeNode({ node, name }: { node: TaskNode; name: (did: string) => string }) {
  const t = node.task;
  return (
    <li className="ml-4 list-disc py-0.5" data-testid="task-tree-node">
      <LongText className="font-medium" text={taskName(t)} />{' '}
      <span className="text-slate-500 dark:text-slate-400">
        {WORDS[t.status] ?? t.status}
        {t.blocked ? ' (blocked)' : ''} · {t.progress}% · {displayText(name(t.worker))}
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
