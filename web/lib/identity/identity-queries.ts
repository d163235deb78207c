// The stored identity as the UI sees it (no secret key), cached by TanStack Query like any
// other asynchronous source; writes go through identity-store and then update this cache.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { identityStore, summarize, type IdentitySummary } from './identity-store';

export const storedIdentityQuery = queryOptions({
  queryKey: ['identity', 'stored'],
  queryFn: async (): Promise<IdentitySummary | null> => {
    const identity = await identityStore.load();
    return identity ? summarize(identity) : null;
  },
  staleTime: Infinity,
  retry: false,
  // Local storage: never paused for "offline".
  networkMode: 'always',
});

export const useStoredIdentity = () => useQuery(storedIdentityQuery);
