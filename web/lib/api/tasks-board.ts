// GET /api/tasks: the OACoP task board (tasks, columns by status, tree by parentTaskId, log).
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import type { TaskBoard } from '@shared/oacop/task-projection';
import { getJson } from './http';

const Answer = z.looseObject({ tasks: z.array(z.looseObject({ threadId: z.string() })), columns: z.record(z.string(), z.array(z.string())), tree: z.array(z.unknown()) });

export const tasksBoardQuery = queryOptions({
  queryKey: ['oacop', 'tasks'],
  queryFn: async ({ signal }) => (await getJson('/api/tasks', Answer, { signal })) as unknown as TaskBoard,
  refetchInterval: 1_000,
});
