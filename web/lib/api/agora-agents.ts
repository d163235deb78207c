// GET /agents: the OSNAP directory (§3.3 entries) with our presence and the manifest each entry
// was built from. The session cookie is the caller, so private entries the operator may see
// are included.
import { queryOptions } from '@tanstack/react-query';
import { AgentDirectory } from '@shared/contract/relay';
import { getJson } from './http';

export type { DirectoryEntry } from '@shared/contract/relay';

export const directoryQuery = queryOptions({
  queryKey: ['agora', 'agents'],
  queryFn: ({ signal }) => getJson('/agents', AgentDirectory, { signal }),
  // Presence changes without any event the console hears of.
  refetchInterval: 15_000,
});
