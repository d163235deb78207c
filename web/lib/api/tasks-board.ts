// GET /api/tasks: the OACoP task board (tasks, columns by status, tree by parentTaskId, log).
import { queryOptions } from '@tanstack/react-query';
import { TaskBoardAnswer } from '@shared/contract/console';
import type { TaskBoard } from '@shared/oacop/task-projection';
import { getJson } from './http';

export const tasksBoardQuery = queryOptions({
  queryKey: ['oacop', 'tasks'],
  queryFn: async ({ signal }) => (await getJson('/api/tasks', TaskBoardAnswer, { signal })) as unknown as TaskBoard,
  refetchInterval: 1_000,
});
