// Tasks named by their goals (decisions-web.md §33): one query per room, read by the timeline, the
// control log, the grants, the review queue and the health panel alike.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { roomTasksQuery } from '@web/lib/api/rooms-tasks';
import { firstWords } from './item-names';

/** The goal's first words for a task id of the room, or undefined when the history has no goal for it. */
export function useTaskGoals(roomId: string | undefined): (taskId: string) => string | undefined {
  const { data } = useQuery({ ...roomTasksQuery(roomId ?? ''), enabled: Boolean(roomId) });
  const goals = useMemo(() => new Map((data ?? []).map((t) => [t.taskId, t.goal])), [data]);
  return useCallback((taskId: string) => firstWords(goals.get(taskId), 10), [goals]);
}
