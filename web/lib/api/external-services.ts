// /api/services (the registry of relays and negotiation services) and
// /api/external/threads (threads bridged from external relays, each with its source);
// shapes: shared/contract/console.ts.
import { queryOptions } from '@tanstack/react-query';
import { BridgedThreadList, ServiceAdded, ServiceList } from '@shared/contract/console';
import { getJson, postJson } from './http';

export type {
  BridgedThread,
  ExternalSource,
  ExternalServiceView as ServiceView,
  ServiceStatus,
} from '@shared/contract/console';

export const servicesQuery = queryOptions({
  queryKey: ['services'],
  queryFn: ({ signal }) => getJson('/api/services', ServiceList, { signal }),
  refetchInterval: 3_000,
});

export interface NewService {
  readonly name: string;
  readonly url: string;
  readonly kind: 'relay' | 'negotiation';
  readonly readOnly: boolean;
}

export const addService = (service: NewService) => postJson('/api/services', service, ServiceAdded);

export async function removeService(id: string): Promise<void> {
  const res = await fetch(`/api/services/${encodeURIComponent(id)}`, { method: 'DELETE', credentials: 'same-origin' });
  if (!res.ok) throw new Error(`The server answered ${res.status}.`);
}

export const bridgedThreadsQuery = queryOptions({
  queryKey: ['external', 'threads'],
  queryFn: ({ signal }) => getJson('/api/external/threads', BridgedThreadList, { signal }).then((r) => r.threads),
  refetchInterval: 3_000,
});
