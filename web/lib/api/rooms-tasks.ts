// GET /api/rooms/:id/tasks: the goals of the room's newest tasks, for naming a task by what it asks
// (shape: shared/contract/rooms.ts; decisions-web.md §33). A live `task` envelope refreshes it.
import { queryOptions } from '@tanstack/react-query';
import { TaskGoalList } from '@shared/contract/rooms';
import { getJson } from './http';

export const roomTasksQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'tasks'],
    staleTime: 30_000,
    queryFn: ({ signal }) =>
      getJson(`/api/rooms/${encodeURIComponent(roomId)}/tasks`, TaskGoalList, { signal }).then((r) => r.tasks),
  });
