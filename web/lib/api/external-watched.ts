// /api/services/watched: the DIDs the bridge follows on every external relay, beside
// every operator's own. Reading needs a session; adding and removing, a facilitator's.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { deleteJson, getJson, postJson } from './http';

const Watched = z.object({ watched: z.array(z.string()) });

export const watchedQuery = queryOptions({
  queryKey: ['services', 'watched'],
  queryFn: ({ signal }) => getJson('/api/services/watched', Watched, { signal }).then((r) => r.watched),
});

export const addWatched = (did: string) => postJson('/api/services/watched', { did }, Watched).then((r) => r.watched);

export const removeWatched = (did: string) => deleteJson(`/api/services/watched/${encodeURIComponent(did)}`, Watched).then((r) => r.watched);
