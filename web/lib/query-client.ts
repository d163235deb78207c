import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { sessionQuery } from './api/auth-session';
import { ApiError } from './api/http';

// A 401 from any other call means the session ended (expired, or signed out in another tab):
// asking again lets the console's gate show the sign-in screen.
const onError = (error: unknown, key?: readonly unknown[]) => {
  if (error instanceof ApiError && error.status === 401 && key?.[0] !== 'auth') {
    void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
  }
};

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => onError(error, query.queryKey) }),
  mutationCache: new MutationCache({
    onError: (error, _vars, _ctx, mutation) => onError(error, mutation.options.mutationKey),
  }),
  defaultOptions: {
    queries: { staleTime: 10_000, retry: 1, refetchOnWindowFocus: false },
  },
});
