// /api/agent-accounts: agents as the console runs them (their broker credentials, live connections,
// suspension), and /api/rooms/{id}/health: a room's last hour at a glance. Not the Agora agent
// directory (/agents, OSNAP §3.3), which lists what agents say about themselves.
import { z } from 'zod';
import { isValidId, MAX_ID_LENGTH } from '../aor/ids';
import { operation } from './operation';

export const AgentId = z
  .string()
  .refine(isValidId, `must be 1–${MAX_ID_LENGTH} characters without spaces, control characters, "/", "+" or "#"`);

export const CreateAgentBody = z.strictObject({ agentId: AgentId });
export type CreateAgentBody = z.input<typeof CreateAgentBody>;

/** Why an agent is suspended: read by the agent (its grants end with it) and by the room. */
export const SuspendReason = z.string().trim().min(1).max(300);
export const SuspendBody = z.strictObject({ reason: SuspendReason });
export type SuspendBody = z.input<typeof SuspendBody>;

export const Suspension = z.object({
  /** Epoch ms. */
  at: z.number(),
  /** The facilitator's did, or `cli` for the operator CLI. */
  by: z.string(),
  /** The facilitator's display name; null for `cli` or an operator who gave none. */
  byName: z.string().nullable(),
  reason: z.string(),
});
export type Suspension = z.infer<typeof Suspension>;

/** A live grant the agent holds; expiresAt in Unix seconds, as in the grant envelope. */
export const HeldGrant = z.object({
  roomId: z.string(),
  taskId: z.string(),
  maxMessages: z.number(),
  spent: z.number(),
  expiresAt: z.number(),
});
export type HeldGrant = z.infer<typeof HeldGrant>;

export const AgentAccount = z.object({
  agentId: z.string(),
  /** Epoch ms the credential was made (or last rotated). */
  createdAt: z.number(),
  suspended: Suspension.nullable(),
  /** Open MQTT connections as this agent; null when the broker cannot say (an external Mosquitto). */
  connections: z.number().nullable(),
  /** The agent's last heartbeat in any room (epoch ms), null when never heard. */
  lastSeenAt: z.number().nullable(),
  /** Rooms the agent has sent a heartbeat in or holds a grant in, sorted. */
  rooms: z.array(z.string()),
  grants: z.array(HeldGrant),
  /** The gateway's rejects of this agent's candidates in the last hour, every room. */
  rejectsLastHour: z.number(),
  /**
   * The latest action on this agent in the activity log (decisions-server.md §83): after a resume,
   * who resumed it, and the suspension it lifted (who, when, why), so the row can still say it.
   */
  lastAction: z
    .object({
      id: z.number(),
      action: z.string(),
      at: z.number(),
      by: z.string(),
      byName: z.string().nullable(),
      /** For agent.resume: the suspension it lifted, as it was. */
      lifted: z
        .object({ at: z.number(), by: z.string(), byName: z.string().nullable(), reason: z.string() })
        .nullable(),
    })
    .nullable(),
});
export type AgentAccount = z.infer<typeof AgentAccount>;

/** Agents in one page when the query names no limit, and the most a page holds (decisions-server.md §87). */
export const AGENT_PAGE = 100;
export const MAX_AGENT_PAGE = 500;

/** A page of the agents, in agentId order: keyset by agentId, never every row at once. */
export const AgentAccountQuery = z.strictObject({
  /** Keyset: the last agentId of the previous page (its answer's `next`). */
  after: AgentId.optional(),
  /** Only agents whose id starts with this (case as typed: ids are compared exactly). */
  search: AgentId.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_AGENT_PAGE).optional(),
});
export type AgentAccountQuery = z.input<typeof AgentAccountQuery>;

/** Every agent with a credential counted, whatever the search: a count, not the rows. */
export const AgentCounts = z.object({
  total: z.number(),
  suspended: z.number(),
  /** Agents with at least one open connection; null when the broker cannot say (an external one). */
  connected: z.number().nullable(),
});
export type AgentCounts = z.infer<typeof AgentCounts>;

export const AgentAccountList = z.object({
  /** The server's clock (epoch ms), so "seen 5 s ago" needs no trust in the browser's. */
  now: z.number(),
  /** Where agents connect: the MQTT address they should use. */
  mqttUrl: z.string(),
  broker: z.enum(['embedded', 'external']),
  /** This page, in agentId order. */
  agents: z.array(AgentAccount),
  /** The `after` of the next page; null on the last one. */
  next: z.string().nullable(),
  counts: AgentCounts,
});
export type AgentAccountList = z.infer<typeof AgentAccountList>;

/** A new or rotated credential: the password is in this answer only, never stored or shown again. */
export const IssuedCredential = z.object({ agentId: z.string(), password: z.string(), mqttUrl: z.string() });
export type IssuedCredential = z.infer<typeof IssuedCredential>;

export const AgentAccountAnswer = z.object({ agent: AgentAccount });
export const SuspendAnswer = z.object({
  agent: AgentAccount,
  /** Live grants this suspension ended, each with a revoke on its room's control topic. */
  grantsEnded: z.number(),
});
export const DisconnectAnswer = z.object({
  agentId: z.string(),
  /** Connections closed; null on an external broker, which does not say. */
  disconnected: z.number().nullable(),
});
export const RemovedAnswer = z.object({ agentId: z.string(), removed: z.literal(true) });

/** One minute of a room's traffic: `at` is the minute's start (epoch ms). */
export const MinuteCount = z.object({ at: z.number(), messages: z.number() });
export const ReasonCount = z.object({ reason: z.string(), count: z.number() });
export const AgentRejects = z.object({
  agentId: z.string(),
  rejects: z.number(),
  suspended: z.boolean(),
});

export const RoomHealth = z.object({
  roomId: z.string(),
  now: z.number(),
  /** Start of the window (epoch ms): the last hour. */
  since: z.number(),
  /** Sixty minutes, oldest first, every topic kind counted. */
  perMinute: z.array(MinuteCount),
  decisions: z.object({
    approved: z.number(),
    rejected: z.array(ReasonCount),
  }),
  reviewQueue: z.object({ pending: z.number(), oldestAt: z.number().nullable() }),
  /** Agents with at least one reject in the window, most first. */
  agents: z.array(AgentRejects),
});
export type RoomHealth = z.infer<typeof RoomHealth>;

const READ = { 401: 'UNAUTHORIZED', 404: 'AGENT_NOT_FOUND' };
const WRITE = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN, CSRF_REJECTED',
  404: 'AGENT_NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  502: 'BROKER_UNAVAILABLE',
};

export const AGENT_OPERATIONS = [
  operation({
    method: 'get',
    path: '/api/agent-accounts',
    errors: 'coded',
    summary:
      'A page of the agents with a credential (after, search, limit): connections, rooms, grants, rejects, suspension; and how many there are',
    query: AgentAccountQuery,
    responses: { 200: { description: 'A page of agents, in agentId order', schema: AgentAccountList } },
    refusals: { 400: 'INVALID_REQUEST', 401: 'UNAUTHORIZED' },
  }),
  operation({
    method: 'post',
    path: '/api/agent-accounts',
    errors: 'coded',
    summary: 'Create an agent credential (facilitator); the password is shown once',
    body: CreateAgentBody,
    responses: { 201: { description: 'Created', schema: IssuedCredential } },
    refusals: { ...WRITE, 409: 'AGENT_EXISTS' },
  }),
  operation({
    method: 'get',
    path: '/api/agent-accounts/{agentId}',
    errors: 'coded',
    summary: 'One agent',
    responses: { 200: { description: 'The agent', schema: AgentAccountAnswer } },
    refusals: READ,
  }),
  operation({
    method: 'delete',
    path: '/api/agent-accounts/{agentId}',
    errors: 'coded',
    summary: 'Remove the credential and close its connections (facilitator)',
    responses: { 200: { description: 'Removed', schema: RemovedAnswer } },
    refusals: WRITE,
  }),
  operation({
    method: 'post',
    path: '/api/agent-accounts/{agentId}/rotate',
    errors: 'coded',
    summary: 'Issue a new password, closing connections made with the old one (facilitator)',
    responses: { 200: { description: 'The new password, once', schema: IssuedCredential } },
    refusals: WRITE,
  }),
  operation({
    method: 'post',
    path: '/api/agent-accounts/{agentId}/disconnect',
    errors: 'coded',
    summary: 'Close the agent’s open connections now; it may connect again (facilitator)',
    responses: { 200: { description: 'Closed', schema: DisconnectAnswer } },
    refusals: WRITE,
  }),
  operation({
    method: 'post',
    path: '/api/agent-accounts/{agentId}/suspend',
    errors: 'coded',
    summary: 'Suspend: disconnect, refuse connecting and publishing, end its grants (facilitator)',
    body: SuspendBody,
    responses: { 200: { description: 'Suspended', schema: SuspendAnswer } },
    refusals: WRITE,
  }),
  operation({
    method: 'post',
    path: '/api/agent-accounts/{agentId}/resume',
    errors: 'coded',
    summary: 'Lift a suspension (facilitator); grants it lost stay ended',
    responses: { 200: { description: 'Resumed', schema: AgentAccountAnswer } },
    refusals: WRITE,
  }),
  operation({
    method: 'get',
    path: '/api/rooms/{id}/health',
    errors: 'coded',
    summary: 'A room’s last hour: messages per minute, decisions by reason, review-queue age, agents by rejects',
    responses: { 200: { description: 'Health', schema: RoomHealth } },
    refusals: { 401: 'UNAUTHORIZED', 404: 'ROOM_NOT_FOUND' },
  }),
];
