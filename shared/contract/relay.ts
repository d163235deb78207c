// The Agora v1.0 relay, the agent directory (OSNAP §3.3–§3.4) and the service's own endpoints
// (health, readiness, seed, this document). Errors on the relay's routes are `AgoraErrorBody`.
import { z } from 'zod';
import { AgentCard } from '../a2a/agent-card';
import { AGORA_VERSION, Envelope, MESSAGE_TYPES } from '../agora/envelope';
import { CapabilityManifest } from '../agora/capability-manifest';
import { AgentEntry } from '../osnap/agent-entry';
import { AgentsResponseMessage, ToolsResponseMessage } from '../osnap/message';
import { operation } from './operation';

export const Health = z.object({
  ok: z.literal(true),
  version: z.string().describe('Switchboard release'),
  agora: z.literal(AGORA_VERSION).describe('Agora protocol version spoken'),
});
export type Health = z.infer<typeof Health>;

const Checks = z.record(z.string(), z.string());
export const Ready = z.object({ ready: z.literal(true), checks: Checks });
export const NotReady = z.object({
  ready: z.literal(false),
  code: z.literal('NOT_READY'),
  message: z.string(),
  checks: Checks,
});

/** What POST /events answers: a stored event, or (intent directory.register) a registration. */
export const PostAnswer = z.union([
  z.object({
    ok: z.literal(true),
    id: z.string(),
    cursor: z.string().describe('cur_<n>: resume GET /events after this event'),
    duplicate: z.literal(true).optional(),
    thread: z.object({ id: z.string(), status: z.string() }).optional(),
  }),
  z.object({ ok: z.literal(true), id: z.string(), registered: z.string().describe('The registered DID') }),
]);
export type PostAnswer = z.infer<typeof PostAnswer>;

export const RegisterAnswer = z.object({
  ok: z.literal(true),
  id: z.string(),
  registered: z.string(),
  duplicate: z.literal(true).optional(),
});

/** Stored envelopes as they were signed; their schema is the Envelope component. */
export const EventPage = z.object({
  ok: z.literal(true),
  events: z.array(z.record(z.string(), z.unknown())),
  hasMore: z.boolean(),
  cursor: z.string(),
});
export type EventPage = z.infer<typeof EventPage>;

export const PollQuery = z.object({
  since: z
    .string()
    .min(1)
    .max(64)
    .describe('ISO 8601 UTC timestamp (events with ts >= since) or a cursor cur_<n> from an earlier answer'),
  recipient: z.string().min(1).max(512).optional(),
  sender: z.string().min(1).max(512).optional(),
  type: z.enum(MESSAGE_TYPES).optional(),
  thread: z.string().min(1).max(256).optional(),
  timeout: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Seconds to wait (default 30, above 60 read as 60, 0 answers at once)'),
  limit: z.coerce.number().int().min(1).max(500).optional().describe('Page size (default 100, max 500)'),
});

export const DirectoryQuery = z.object({
  capability: z.string().optional(),
  scope: z.string().optional(),
});

export const PRESENCE_STATUSES = ['online', 'stale', 'offline', 'unknown'] as const;
export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];
/** Our extension of an OSNAP entry: the presence shown and where it comes from (server/relay/directory.ts). */
export const DirectoryPresence = z.object({
  status: z.enum(PRESENCE_STATUSES),
  last_seen_at: z.string().nullable(),
  /** An AOR heartbeat (rooms), a signed relay event, or a long-poll waiting for it now. */
  sources: z.array(z.enum(['aor', 'relay', 'listening'])),
});
/** One entry of GET /agents: the OSNAP §3.3 entry with our presence and the manifest it was built from. */
export const DirectoryEntry = AgentEntry.extend({
  presence: DirectoryPresence,
  registered_at: z.string(),
  /** The AOR agent the registration names, and whether the console linked it to this DID. */
  aor_agent: z.object({ agent_id: z.string(), verified: z.boolean() }).optional(),
  /** The Agora capability manifest the entry came from (pricing lives there). */
  manifest: CapabilityManifest.optional(),
});
export type DirectoryEntry = z.infer<typeof DirectoryEntry>;
export const AgentDirectory = z.array(DirectoryEntry);

/** An OSNAP §3.4 tools_response, as GET /agents/{did}/tools answers it. */
export const ToolsResponse = ToolsResponseMessage;
export type ToolsResponse = z.infer<typeof ToolsResponse>;

export const QueryAnswer = z.object({
  ok: z.literal(true),
  message: z.union([AgentsResponseMessage, ToolsResponseMessage]).describe('OSNAP agents_response or tools_response'),
});

/** The OpenAPI 3.1 document itself, generated from these operations (server/http/openapi.ts). */
export const OpenApiDocument = z.record(z.string(), z.unknown());

export const SeedAnswer = z.object({ ok: z.literal(true), count: z.number().int() });

/** A signed Agora v1.0 envelope: the relay reads it as text and verifies it (agora-relay.ts). */
export const SignedEnvelope = Envelope;

export const RELAY_OPERATIONS = [
  operation({
    method: 'post',
    path: '/events',
    errors: 'agora',
    summary: 'Submit one signed Agora envelope',
    description:
      'Checked in order: size (64 KiB), JSON, version "1.0", schema, signature against sender.id, ±5 min window, replay (id), meta.ttl, thread state machine. A refusal stores nothing; the same signed envelope again answers ok with duplicate: true. A REQUEST with intent directory.register is a directory registration.',
    body: SignedEnvelope,
    responses: { 200: { description: 'Stored (or already stored)', schema: PostAnswer } },
    refusals: {
      400: 'INVALID_REQUEST, TIMEOUT',
      403: 'FORBIDDEN',
      409: 'INVALID_REQUEST (id or thread conflict)',
      413: 'INVALID_REQUEST (payload_too_large)',
      429: 'RATE_LIMITED',
      503: 'UNAVAILABLE',
    },
  }),
  operation({
    method: 'get',
    path: '/events',
    errors: 'agora',
    summary: 'Long-poll for events',
    description:
      'Answers at once when events match, otherwise when one arrives or the timeout passes. Resume with since=<cursor> to never miss or repeat an event.',
    query: PollQuery,
    responses: { 200: { description: 'A page of events', schema: EventPage } },
    refusals: { 400: 'INVALID_REQUEST', 429: 'RATE_LIMITED' },
  }),
  operation({
    method: 'get',
    path: '/agents',
    errors: 'coded',
    summary: 'OSNAP §3.3 agent directory',
    query: DirectoryQuery,
    responses: { 200: { description: 'Entries the caller may see', schema: AgentDirectory } },
    refusals: { 400: 'OSNAP_INVALID_QUERY' },
  }),
  operation({
    method: 'post',
    path: '/agents',
    errors: 'agora',
    summary: 'Register an agent',
    description: 'A signed REQUEST with intent directory.register carrying the capability manifest.',
    body: SignedEnvelope,
    responses: { 200: { description: 'Registered', schema: RegisterAnswer } },
    refusals: {
      400: 'INVALID_REQUEST',
      403: 'FORBIDDEN',
      409: 'INVALID_REQUEST (manifest_stale)',
      413: 'INVALID_REQUEST',
      429: 'RATE_LIMITED',
    },
  }),
  operation({
    method: 'post',
    path: '/agents/query',
    errors: 'agora',
    summary: 'Signed OSNAP agents_query or tools_query',
    description:
      'A signed REQUEST with intent osnap.agents_query or osnap.tools_query and the OSNAP message as payload.params; answered once per signer and id.',
    body: SignedEnvelope,
    responses: { 200: { description: 'The OSNAP answer', schema: QueryAnswer } },
    refusals: {
      400: 'INVALID_REQUEST, OSNAP_*',
      403: 'FORBIDDEN',
      404: 'NOT_FOUND',
      413: 'INVALID_REQUEST',
      429: 'RATE_LIMITED',
    },
  }),
  operation({
    method: 'get',
    path: '/agents/{did}/tools',
    errors: 'coded',
    summary: 'OSNAP §3.4 tools of one agent, for the caller',
    responses: {
      200: { description: 'tools_response', schema: ToolsResponse },
    },
    refusals: { 404: 'NOT_FOUND' },
  }),
  operation({
    method: 'get',
    path: '/agents/{did}/agent-card.json',
    errors: 'coded',
    summary: 'One directory entry as an A2A Agent Card',
    description:
      'Name, description, one skill per capability, and the Agora relay (or its registered endpoint) as where it is reached (binding AGORA). Private entries only for callers allowed to see them.',
    responses: { 200: { description: 'A2A AgentCard (v1.0 shape)', schema: AgentCard } },
    refusals: { 404: 'NOT_FOUND' },
  }),
  operation({
    method: 'get',
    path: '/health',
    errors: 'coded',
    summary: 'Liveness',
    responses: { 200: { description: 'Alive', schema: Health } },
  }),
  operation({
    method: 'get',
    path: '/ready',
    errors: 'coded',
    summary: 'Readiness',
    description: '200 when this instance can serve (store, broker); 503 naming what is not (Retry-After: 5).',
    responses: { 200: { description: 'Ready', schema: Ready }, 503: { description: 'Not ready', schema: NotReady } },
  }),
  operation({
    method: 'post',
    path: '/seed',
    errors: 'coded',
    summary: "Seed the demo agents' first requests",
    responses: { 200: { description: 'Seeded', schema: SeedAnswer } },
    refusals: { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN, CSRF_REJECTED', 409: 'CONFLICT' },
  }),
  operation({
    method: 'get',
    path: '/openapi.json',
    errors: 'coded',
    summary: 'This document',
    responses: { 200: { description: 'OpenAPI 3.1', schema: OpenApiDocument } },
  }),
];
