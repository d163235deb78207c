// GET /api/tasks: the OACoP task board (tasks, columns by status, tree by parentTaskId, log).
import { queryOptions } from '@tanstack/react-query';
import { TaskBoardAnswer } from '@shared/contract/console';
import { getJson } from './http';

export const tasksBoardQuery = queryOptions({
  queryKey: ['oacop', 'tasks'],
  queryFn: ({ signal }) => getJson('/api/tasks', TaskBoardAnswer, { signal }),
  refetchInterval: 1_000,
});
