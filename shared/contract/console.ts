// The console's other reads and writes: Agora threads, OACoP scheduling and tasks, the local
// ledger, external services and the guided demo. Operator session unless said otherwise.
import { z } from 'zod';
import { THREAD_STATUSES } from '../agora/thread-state';
import { isDidKey } from '../crypto/did-key';
import { operation } from './operation';
import { SignedEnvelope } from './relay';

const Loose = z.record(z.string(), z.unknown());

export const AgoraThreadListQuery = z.object({
  party: z.string().min(1).max(512).optional(),
  status: z.enum(THREAD_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export const AgoraThreadView = z.object({
  id: z.string(),
  status: z.enum(THREAD_STATUSES),
  state: Loose,
  version: z.number(),
  openedAt: z.number(),
  updatedAt: z.number(),
  deadlineAt: z.number().nullable(),
  expected: z.array(z.string()).or(Loose),
});
export const AgoraThreadDetail = z.object({
  thread: AgoraThreadView,
  events: z.array(z.object({ seq: z.number(), cursor: z.string(), receivedAt: z.number(), envelope: z.unknown() })),
});

export const ServiceInput = z.object({ name: z.string().trim().min(1).max(80), url: z.string().max(2048), kind: z.enum(['relay', 'negotiation']), readOnly: z.boolean().optional() });
export type ServiceInput = z.infer<typeof ServiceInput>;
// An Ed25519 did:key that decodes (the multicodec and key length checked), as the relay requires of sender.id.
export const WatchedDid = z.string().max(256).refine(isDidKey, 'did must be an Ed25519 did:key.');
export const WatchedInput = z.object({ did: WatchedDid });
export const ServiceStatus = z.looseObject({ state: z.string(), since: z.number(), lastOkAt: z.number().nullable(), lastError: z.string().nullable(), failures: z.number(), nextRetryAt: z.number().nullable() });
export const ExternalServiceView = z.looseObject({ id: z.string(), name: z.string(), kind: z.enum(['relay', 'negotiation']), baseUrl: z.string(), readOnly: z.boolean(), builtin: z.boolean(), removable: z.boolean() });
const Watched = z.object({ watched: z.array(Loose) });

const SESSION = { 401: 'UNAUTHORIZED' };
const FACILITATOR = { 400: 'INVALID_REQUEST', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN, CSRF_REJECTED', 413: 'PAYLOAD_TOO_LARGE' };
const PROXY = { 403: 'SERVICE_READ_ONLY', 404: 'NOT_FOUND', 502: 'SERVICE_BAD_ANSWER', 503: 'SERVICE_UNAVAILABLE' };
const proxied = { description: 'What the service answered, with its status, re-serialised as JSON (decisions-server.md §40)', schema: Loose };

export const CONSOLE_OPERATIONS = [
  operation({ method: 'get', path: '/api/agora/threads', errors: 'coded', summary: 'Agora threads', query: AgoraThreadListQuery, responses: { 200: { description: 'Threads', schema: z.object({ threads: z.array(AgoraThreadView) }) } }, refusals: { ...SESSION, 400: 'INVALID_REQUEST' } }),
  operation({ method: 'get', path: '/api/agora/threads/{id}', errors: 'coded', summary: 'One Agora thread with every envelope', responses: { 200: { description: 'The thread', schema: AgoraThreadDetail } }, refusals: { ...SESSION, 404: 'NOT_FOUND' } }),
  operation({ method: 'get', path: '/api/scheduling/threads', errors: 'coded', summary: 'OACoP scheduling threads', responses: { 200: { description: 'Summaries', schema: z.object({ threads: z.array(Loose) }) } }, refusals: SESSION }),
  operation({ method: 'get', path: '/api/scheduling/threads/{id}', errors: 'coded', summary: 'One scheduling thread', responses: { 200: { description: 'The thread', schema: z.object({ thread: Loose }) } }, refusals: { ...SESSION, 404: 'NOT_FOUND' } }),
  operation({ method: 'get', path: '/api/tasks', errors: 'coded', summary: 'OACoP task board', responses: { 200: { description: 'The board', schema: Loose } }, refusals: SESSION }),
  operation({ method: 'post', path: '/api/ledger/burns', errors: 'agora', summary: 'Burn (OACoP §6.2): a signed REQUEST with intent oapp.burn', body: SignedEnvelope, responses: { 201: { description: 'Recorded', schema: Loose } }, refusals: { 400: 'INVALID_REQUEST', 402: 'INSUFFICIENT_BALANCE', 403: 'FORBIDDEN', 409: 'CONFLICT', 413: 'INVALID_REQUEST', 429: 'RATE_LIMITED' } }),
  operation({ method: 'get', path: '/api/ledger/balances/{did}', errors: 'coded', summary: 'A DID\'s balance (public)', responses: { 200: { description: 'Balance', schema: z.object({ did: z.string(), balance: z.string() }) } }, refusals: { 400: 'INVALID_REQUEST' } }),
  operation({ method: 'get', path: '/api/ledger/burns/{txId}', errors: 'coded', summary: 'One burn (public)', responses: { 200: { description: 'The burn', schema: Loose } }, refusals: { 404: 'NOT_FOUND' } }),
  operation({ method: 'get', path: '/api/services', errors: 'coded', summary: 'External relays and negotiation services, built-in first', responses: { 200: { description: 'Services', schema: z.object({ services: z.array(ExternalServiceView), watched: z.array(Loose) }) } }, refusals: SESSION }),
  operation({ method: 'post', path: '/api/services', errors: 'coded', summary: 'Add a service (facilitator)', body: ServiceInput, responses: { 201: { description: 'Added', schema: z.object({ service: ExternalServiceView }) } }, refusals: { ...FACILITATOR, 409: 'CONFLICT' } }),
  operation({ method: 'delete', path: '/api/services/{id}', errors: 'coded', summary: 'Remove a service added here (facilitator)', responses: { 204: { description: 'Removed' } }, refusals: { ...FACILITATOR, 404: 'NOT_FOUND' } }),
  operation({ method: 'get', path: '/api/services/watched', errors: 'coded', summary: 'DIDs followed on external relays', responses: { 200: { description: 'Watched', schema: Watched } }, refusals: SESSION }),
  operation({ method: 'post', path: '/api/services/watched', errors: 'coded', summary: 'Follow a DID (facilitator)', body: WatchedInput, responses: { 200: { description: 'Watched', schema: Watched } }, refusals: FACILITATOR }),
  operation({ method: 'delete', path: '/api/services/watched/{did}', errors: 'coded', summary: 'Stop following a DID (facilitator)', responses: { 200: { description: 'Watched', schema: Watched } }, refusals: FACILITATOR }),
  operation({ method: 'get', path: '/api/external/threads', errors: 'coded', summary: 'Threads fetched from external relays', responses: { 200: { description: 'Threads', schema: z.object({ threads: z.array(Loose) }) } }, refusals: SESSION }),
  operation({ method: 'get', path: '/api/external/negotiations', errors: 'coded', summary: 'Negotiations fetched from external services', responses: { 200: { description: 'Negotiations', schema: z.object({ negotiations: z.array(Loose) }) } }, refusals: SESSION }),
  operation({ method: 'get', path: '/api/external/{serviceId}/threads/{threadId}', errors: 'coded', summary: 'One external thread', responses: { 200: { description: 'The thread', schema: z.object({ thread: Loose, events: z.array(Loose), source: Loose }) } }, refusals: { ...SESSION, ...PROXY } }),
  operation({ method: 'post', path: '/api/external/{serviceId}/events', errors: 'coded', summary: 'Forward a signed envelope to an external relay', body: SignedEnvelope, responses: { 200: proxied }, refusals: { ...FACILITATOR, ...PROXY } }),
  operation({ method: 'get', path: '/api/external/{serviceId}/oap/{path}', errors: 'coded', summary: 'Read from an external negotiation service (path: the rest of /oap/…)', responses: { 200: proxied }, refusals: { ...SESSION, ...PROXY } }),
  operation({ method: 'post', path: '/api/external/{serviceId}/oap/{path}', errors: 'coded', summary: 'Forward a signed RFC 0002 document to an external negotiation service', body: Loose, responses: { 200: proxied }, refusals: { ...FACILITATOR, ...PROXY } }),
  operation({ method: 'post', path: '/api/demo/negotiation', errors: 'coded', summary: 'Start a guided demo negotiation (facilitator)', responses: { 201: { description: 'Started', schema: z.object({ negotiation_id: z.string(), names: Loose }) } }, refusals: { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN, CSRF_REJECTED', 503: 'SERVICE_UNAVAILABLE' } }),
];
