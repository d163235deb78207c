import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { sessionQuery } from './api/auth-session';
import { ApiError } from './api/http';
import { watchNames } from './names/name-cache';

// A 401 from any other call means the session ended (expired, or signed out in another tab):
// asking again lets the console's gate show the sign-in screen.
const onError = (error: unknown, key?: readonly unknown[]) => {
  if (error instanceof ApiError && error.status === 401 && key?.[0] !== 'auth') {
    void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
  }
};

/**
 * One retry for what may pass the second time (the network, a 5xx, a 408 or 429); none for a
 * refusal that would only be refused again (a 404 says "no such thing" at once, not after retries).
 */
export const retryOnce = (failures: number, error: unknown): boolean =>
  failures < 1 &&
  !(error instanceof ApiError && error.status >= 400 && error.status < 500 && ![408, 429].includes(error.status));

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => onError(error, query.queryKey) }),
  mutationCache: new MutationCache({
    onError: (error, _vars, _ctx, mutation) => onError(error, mutation.options.mutationKey),
  }),
  defaultOptions: {
    queries: { staleTime: 10_000, retry: retryOnce, refetchOnWindowFocus: false },
  },
});

// The naming service's book follows the cache for the whole life of the console (decisions-web.md §29).
watchNames(queryClient);
