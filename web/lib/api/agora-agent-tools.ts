// GET /agents/{did}/tools: the OSNAP §3.4 tools_response the directory answers for the
// operator's session (a tools_query on the agent's behalf; decisions-agora.md §25).
import { queryOptions } from '@tanstack/react-query';
import { ToolsResponse } from '@shared/contract/relay';
import { getJson } from './http';

export const agentToolsQuery = (did: string) =>
  queryOptions({
    queryKey: ['agora', 'agents', did, 'tools'],
    queryFn: ({ signal }) => getJson(`/agents/${encodeURIComponent(did)}/tools`, ToolsResponse, { signal }),
    staleTime: 60_000,
  });
