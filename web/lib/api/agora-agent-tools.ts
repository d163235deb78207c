// GET /agents/{did}/tools: the OSNAP §3.4 tools_response the directory answers for the
// operator's session (a tools_query on the agent's behalf; decisions-agora.md §25).
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { ToolsResponsePayload } from '@shared/osnap/payloads';
import { getJson } from './http';

const ToolsResponse = z.looseObject({
  sender_agent_id: z.string(),
  message_type: z.literal('tools_response'),
  payload: ToolsResponsePayload,
});
export type ToolsResponse = z.infer<typeof ToolsResponse>;

export const agentToolsQuery = (did: string) =>
  queryOptions({
    queryKey: ['agora', 'agents', did, 'tools'],
    queryFn: ({ signal }) => getJson(`/agents/${encodeURIComponent(did)}/tools`, ToolsResponse, { signal }),
    staleTime: 60_000,
  });
