// /api/agent-accounts: agents' credentials, connections and suspension; /api/rooms/:id/health
// (shapes: shared/contract/agents.ts). Every screen that acts on an agent uses these.
import { queryOptions } from '@tanstack/react-query';
import {
  AgentAccountList,
  DisconnectAnswer,
  IssuedCredential,
  RemovedAnswer,
  RoomHealth,
  SuspendAnswer,
  AgentAccountAnswer,
} from '@shared/contract/agents';
import { deleteJson, getJson, postJson } from './http';

export type { AgentAccount, AgentAccountList, IssuedCredential, RoomHealth } from '@shared/contract/agents';

const base = '/api/agent-accounts';
const one = (agentId: string) => `${base}/${encodeURIComponent(agentId)}`;

/** Every query that shows an agent's state; refetched after any action on an agent. */
export const AGENT_ACCOUNTS_KEY = ['agent-accounts'] as const;

export const agentAccountsQuery = queryOptions({
  queryKey: AGENT_ACCOUNTS_KEY,
  queryFn: ({ signal }) => getJson(base, AgentAccountList, { signal }),
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
