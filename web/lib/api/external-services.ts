// /api/services (the registry of relays and negotiation services) and
// /api/external/threads (threads bridged from external relays, each with its source).
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { ThreadView } from './agora-threads';
import { getJson, postJson } from './http';

export const ServiceStatus = z.object({
  state: z.enum(['connecting', 'up', 'down']),
  since: z.number(),
  lastOkAt: z.number().nullable(),
  lastError: z.string().nullable(),
  failures: z.number(),
  nextRetryAt: z.number().nullable(),
});
export type ServiceStatus = z.infer<typeof ServiceStatus>;

export const ServiceView = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  kind: z.enum(['relay', 'negotiation']),
  readOnly: z.boolean(),
  origin: z.enum(['builtin', 'env', 'console']),
  builtin: z.boolean(),
  removable: z.boolean(),
  status: ServiceStatus,
});
export type ServiceView = z.infer<typeof ServiceView>;

export const servicesQuery = queryOptions({
  queryKey: ['services'],
  queryFn: ({ signal }) => getJson('/api/services', z.object({ services: z.array(ServiceView), watched: z.array(z.string()) }), { signal }),
  refetchInterval: 3_000,
});

export interface NewService {
  readonly name: string;
  readonly url: string;
  readonly kind: 'relay' | 'negotiation';
  readonly readOnly: boolean;
}

export const addService = (service: NewService) => postJson('/api/services', service, z.object({ service: ServiceView }));

export async function removeService(id: string): Promise<void> {
  const res = await fetch(`/api/services/${encodeURIComponent(id)}`, { method: 'DELETE', credentials: 'same-origin' });
  if (!res.ok) throw new Error(`The server answered ${res.status}.`);
}

/** Where a bridged thread or negotiation comes from, as the server describes it. */
export const ExternalSource = z.object({ id: z.string(), name: z.string(), readOnly: z.boolean(), status: ServiceStatus });
export type ExternalSource = z.infer<typeof ExternalSource>;

export const BridgedThread = z.object({
  id: z.string(),
  serviceId: z.string(),
  status: z.enum(['OPEN', 'PENDING', 'ACTIVE', 'COMPLETED', 'ERROR']),
  state: ThreadView.shape.state,
  updatedAt: z.number(),
  untrusted: z.number(),
  source: ExternalSource,
});
export type BridgedThread = z.infer<typeof BridgedThread>;

export const bridgedThreadsQuery = queryOptions({
  queryKey: ['external', 'threads'],
  queryFn: ({ signal }) => getJson('/api/external/threads', z.object({ threads: z.array(BridgedThread) }), { signal }).then((r) => r.threads),
  refetchInterval: 3_000,
});
