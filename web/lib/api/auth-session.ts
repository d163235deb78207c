// GET /api/auth/session?optional=1: who the session cookie belongs to; 204 means nobody is signed
// in (without `optional`, a 401, which a browser logs as an error on every anonymous page).
import { queryOptions } from '@tanstack/react-query';
import { OperatorSession } from '@shared/contract/auth';
import { ApiError, getJson } from './http';

/** `null` when there is no session (204, or a 401 from a session that ended meanwhile); other failures stay errors. */
export async function fetchSession(signal?: AbortSignal): Promise<OperatorSession | null> {
  try {
    return (
      (await getJson('/api/auth/session?optional=1', OperatorSession.optional(), { signal: signal ?? null })) ?? null
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const sessionQuery = queryOptions({
  queryKey: ['auth', 'session'],
  queryFn: ({ signal }) => fetchSession(signal),
  staleTime: 60_000,
  // Cheap (not rate limited): a tab coming back notices a sign-out done in another tab.
  refetchOnWindowFocus: true,
  // A missing session is an answer, not a failure; only an unreachable server is worth a retry.
  retry: (count, error) => error instanceof ApiError && error.code === 'NETWORK_ERROR' && count < 2,
});
