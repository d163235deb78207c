import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from './http';

export const Health = z.object({ ok: z.literal(true), version: z.string() });
export type Health = z.infer<typeof Health>;

export const healthQuery = queryOptions({
  queryKey: ['health'],
  queryFn: ({ signal }) => getJson('/health', Health, { signal }),
  refetchInterval: 15_000,
});
