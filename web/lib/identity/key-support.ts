// Whether this browser can keep the operator's key (detect-ed25519.ts), asked once per page load.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { detectEd25519 } from './detect-ed25519';

export const keySupportQuery = queryOptions({
  queryKey: ['identity', 'key-support'],
  queryFn: () => detectEd25519(),
  staleTime: Infinity,
  gcTime: Infinity,
  retry: false,
  networkMode: 'always',
});

export const useKeySupport = () => useQuery(keySupportQuery);
