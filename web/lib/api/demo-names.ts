// GET /api/demo/names: the demo's own identities by DID (its negotiation parties), so the console
// names them everywhere; empty on a server without the demo agents.
import { queryOptions } from '@tanstack/react-query';
import { DemoNames } from '@shared/contract/console';
import { getJson } from './http';

export const demoNamesQuery = queryOptions({
  queryKey: ['demo', 'names'],
  queryFn: ({ signal }) => getJson('/api/demo/names', DemoNames, { signal }),
  // The demo's identities follow from its seed: they do not change while the server runs.
  staleTime: Infinity,
});
