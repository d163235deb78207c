// /api/agent-accounts: agents' credentials, connections and suspension, a page at a time in
// agentId order (`next` is the `after` of the following page); /api/rooms/:id/health (shapes:
// shared/contract/agents.ts). Every screen that acts on an agent uses these.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  AGENT_PAGE,
  AgentAccountList,
  DisconnectAnswer,
  IssuedCredential,
  RemovedAnswer,
  RoomHealth,
  SuspendAnswer,
  AgentAccountAnswer,
} from '@shared/contract/agents';
import { deleteJson, getJson, postJson } from './http';

export type {
  AgentAccount,
  AgentAccountList,
  AgentCounts,
  IssuedCredential,
  RoomHealth,
} from '@shared/contract/agents';
export { AGENT_PAGE };

const base = '/api/agent-accounts';
const one = (agentId: string) => `${base}/${encodeURIComponent(agentId)}`;

/** Every query that shows an agent's state; refetched after any action on an agent. */
export const AGENT_ACCOUNTS_KEY = ['agent-accounts'] as const;

export interface AgentPageQuery {
  /** Only agents whose id starts with this; undefined or empty for every agent. */
  readonly search?: string | undefined;
  readonly limit?: number | undefined;
}

export function fetchAgentPage(
  query: AgentPageQuery & { readonly after?: string | undefined },
  signal?: AbortSignal,
): Promise<AgentAccountList> {
  const params = new URLSearchParams({ limit: String(query.limit ?? AGENT_PAGE) });
  if (query.search) params.set('search', query.search);
  if (query.after !== undefined) params.set('after', query.after);
  return getJson(`${base}?${params}`, AgentAccountList, signal ? { signal } : undefined);
}

/** The Agents screen: pages in agentId order, more on request, every loaded page refreshed. */
export const agentAccountsQuery = (search = '') =>
  infiniteQueryOptions({
    queryKey: [...AGENT_ACCOUNTS_KEY, 'pages', search],
    queryFn: ({ pageParam, signal }) =>
      fetchAgentPage({ search, ...(pageParam === null ? {} : { after: pageParam }) }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
    refetchInterval: 5_000,
  });

/** One page (the first, or the first of a search): for the palette, the assign form, the broker's address. */
export const agentAccountPageQuery = (query: AgentPageQuery = {}) =>
  queryOptions({
    queryKey: [...AGENT_ACCOUNTS_KEY, 'page', query.search ?? '', query.limit ?? AGENT_PAGE],
    queryFn: ({ signal }) => fetchAgentPage(query, signal),
    refetchInterval: 5_000,
  });

export const roomHealthQuery = (roomId: string) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'health'],
    queryFn: ({ signal }) => getJson(`/api/rooms/${encodeURIComponent(roomId)}/health`, RoomHealth, { signal }),
    refetchInterval: 10_000,
  });

export const createAgent = (agentId: string) => postJson(base, { agentId }, IssuedCredential);

export const rotateAgent = (agentId: string) => postJson(`${one(agentId)}/rotate`, {}, IssuedCredential);

export const removeAgent = (agentId: string) => deleteJson(one(agentId), RemovedAnswer);

export const disconnectAgent = (agentId: string) => postJson(`${one(agentId)}/disconnect`, {}, DisconnectAnswer);

export const suspendAgent = (agentId: string, reason: string) =>
  postJson(`${one(agentId)}/suspend`, { reason }, SuspendAnswer);

export const resumeAgent = (agentId: string) =>
  postJson(`${one(agentId)}/resume`, {}, AgentAccountAnswer).then((r) => r.agent);
