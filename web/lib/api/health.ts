import { queryOptions } from '@tanstack/react-query';
import { Health } from '@shared/contract/relay';
import { getJson } from './http';

export const healthQuery = queryOptions({
  queryKey: ['health'],
  queryFn: ({ signal }) => getJson('/health', Health, { signal }),
  refetchInterval: 15_000,
});
