// A task as people read it (decisions-web.md §33): its goal's first words, the task id one click
// away (Name's panel). Without a known goal, "a task" with the id behind it, never the bare id.
import { Name } from '@web/components/name';
import { useTaskGoals } from '@web/lib/names/use-task-goals';

export function TaskName({
  roomId,
  taskId,
  plain = false,
  className,
}: {
  roomId: string;
  taskId: string;
  plain?: boolean;
  className?: string;
}) {
  const goalOf = useTaskGoals(roomId);
  const goal = goalOf(taskId);
  return (
    <span data-testid="task-name" data-task-id={taskId} className={className}>
      <Name id={taskId} label={goal ? `“${goal}”` : 'a task'} plain={plain} />
    </span>
  );
}
