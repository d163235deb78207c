// /api/services/watched: the DIDs the bridge follows on every external relay, beside
// every operator's own. Reading needs a session; adding and removing, a facilitator's.
import { queryOptions } from '@tanstack/react-query';
import { WatchedList } from '@shared/contract/console';
import { deleteJson, getJson, postJson } from './http';

export const watchedQuery = queryOptions({
  queryKey: ['services', 'watched'],
  queryFn: ({ signal }) => getJson('/api/services/watched', WatchedList, { signal }).then((r) => r.watched),
});

export const addWatched = (did: string) =>
  postJson('/api/services/watched', { did }, WatchedList).then((r) => r.watched);

export const removeWatched = (did: string) =>
  deleteJson(`/api/services/watched/${encodeURIComponent(did)}`, WatchedList).then((r) => r.watched);
