// One task on the board (OACoP §4): title, worker, deadline ("Overdue" once it passed while the
// task is still open), progress, what blocks it. Agent-written text wraps and collapses (§25).
import { When } from '@web/components/when';
import type { TaskView } from '@shared/contract/console';
import { LongText } from '@web/components/ui/long-text';
import { Name } from '@web/components/name';
import { taskName } from '@web/lib/names/item-names';
import { oacopErrorWords } from '@web/lib/oacop/oacop-words';
import { useNow } from '@web/lib/use-now';
import { isOverdue } from './overdue';

export function TaskCard({ task, title }: { task: TaskView; title: (id: string) => string }) {
  const overdue = isOverdue(task, useNow(30_000));
  return (
    <li
      data-testid="task-card"
      data-task={task.threadId}
      data-status={task.status}
      data-blocked={task.blocked ? 'true' : 'false'}
      data-overdue={overdue ? 'true' : 'false'}
      className={`rounded-md border bg-white p-2 text-sm dark:bg-slate-950 ${task.blocked ? 'border-amber-400 dark:border-amber-600' : 'border-slate-200 dark:border-slate-700'}`}
    >
      <p className="font-medium" data-testid="task-title">
        <LongText text={taskName(task)} />
      </p>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        <Name id={task.worker} /> · due <When at={task.deadline} />
        {overdue ? (
          <>
            {' '}
            <span
              data-testid="task-overdue"
              className="rounded bg-rose-100 px-1 font-medium text-rose-800 dark:bg-rose-950 dark:text-rose-200"
            >
              Overdue
            </span>
          </>
        ) : null}
      </p>
      <div
        className="mt-1 h-1.5 rounded bg-slate-200 dark:bg-slate-800"
        role="progressbar"
        aria-label={`Progress of ${taskName(task)}`}
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
          <LongText text={`Blocked by ${task.blockedBy.map(title).join(', ')}`} />
        </p>
      ) : null}
      {task.comment ? (
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" data-testid="task-comment">
          <LongText text={task.comment} preserveLines />
        </p>
      ) : null}
      {task.lastError ? (
        <p className="mt-1 text-xs text-rose-700 dark:text-rose-300">
          <LongText text={`${task.lastError.code}: ${oacopErrorWords(task.lastError.code, task.lastError.message)}`} />
        </p>
      ) : null}
    </li>
  );
}
