// The console's other reads and writes: Agora threads, OACoP scheduling and tasks, the local
// ledger, external services and the guided demo. Operator session unless said otherwise.
import { z } from 'zod';
import { THREAD_STATUSES } from '../agora/thread-state';
import { isDidKey } from '../crypto/did-key';
import { NegotiationSummary } from './negotiation';
import { operation } from './operation';
import { SignedEnvelope } from './relay';

const Loose = z.record(z.string(), z.unknown());

export const AgoraThreadListQuery = z.object({
  party: z.string().min(1).max(512).optional(),
  status: z.enum(THREAD_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
/**
 * The thread as the relay's state machine left it. The state is declared loosely beyond what the
 * console shows: the relay alone decides it (shared/agora/thread-state.ts has the full shape).
 */
export const AgoraThreadState = z.looseObject({
  status: z.enum(THREAD_STATUSES),
  client: z.string().optional(),
  addressedTo: z.string().optional(),
  /** What the REQUEST asks (its payload.intent), absent in threads stored before it was kept. */
  intent: z.string().optional(),
  requestedAt: z.number().optional(),
  offers: z
    .array(z.looseObject({ offerId: z.string(), agent: z.string(), validUntil: z.number().optional() }))
    .optional(),
  accepted: z.looseObject({ offerId: z.string(), agent: z.string() }).optional(),
  ended: z
    .looseObject({
      type: z.string(),
      phase: z.string().optional(),
      code: z.string().optional(),
      by: z.string().optional(),
    })
    .optional(),
});
export const AgoraThreadView = z.object({
  id: z.string(),
  status: z.enum(THREAD_STATUSES),
  state: AgoraThreadState,
  version: z.number(),
  openedAt: z.number(),
  updatedAt: z.number(),
  deadlineAt: z.number().nullable(),
  /** What may come next (shared/agora expectedMessages). */
  expected: z.array(z.string()),
});
export type AgoraThreadView = z.infer<typeof AgoraThreadView>;
export const AgoraThreadList = z.object({ threads: z.array(AgoraThreadView) });
export const AgoraThreadEvent = z.object({
  seq: z.number(),
  cursor: z.string(),
  /** Milliseconds since the epoch, when the relay accepted it. */
  receivedAt: z.number(),
  /** The envelope exactly as stored; unknown until the browser has checked its signature. */
  envelope: z.unknown(),
});
export type AgoraThreadEvent = z.infer<typeof AgoraThreadEvent>;
export const AgoraThreadDetail = z.object({ thread: AgoraThreadView, events: z.array(AgoraThreadEvent) });
export type AgoraThreadDetail = z.infer<typeof AgoraThreadDetail>;

export const ServiceInput = z.object({
  name: z.string().trim().min(1).max(80),
  url: z.string().max(2048),
  kind: z.enum(['relay', 'negotiation']),
  readOnly: z.boolean().optional(),
});
export type ServiceInput = z.infer<typeof ServiceInput>;
// An Ed25519 did:key that decodes (the multicodec and key length checked), as the relay requires of sender.id.
export const WatchedDid = z.string().max(256).refine(isDidKey, 'did must be an Ed25519 did:key.');
export const WatchedInput = z.object({ did: WatchedDid });
/** A service's reachability as the bridge last saw it (server/external/service-status.ts). */
export const ServiceStatus = z.object({
  state: z.enum(['connecting', 'up', 'down']),
  since: z.number(),
  lastOkAt: z.number().nullable(),
  lastError: z.string().nullable(),
  failures: z.number(),
  nextRetryAt: z.number().nullable(),
});
export type ServiceStatus = z.infer<typeof ServiceStatus>;
export const ExternalServiceView = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  kind: z.enum(['relay', 'negotiation']),
  readOnly: z.boolean(),
  origin: z.enum(['builtin', 'env', 'console']),
  builtin: z.boolean(),
  removable: z.boolean(),
  status: ServiceStatus,
});
export type ExternalServiceView = z.infer<typeof ExternalServiceView>;
export const ServiceList = z.object({ services: z.array(ExternalServiceView), watched: z.array(z.string()) });
export const ServiceAdded = z.object({ service: ExternalServiceView });
export const WatchedList = z.object({ watched: z.array(z.string()) });

/** Where a bridged thread or negotiation comes from, as the server describes it. */
export const ExternalSource = z.object({
  id: z.string(),
  name: z.string(),
  readOnly: z.boolean(),
  status: ServiceStatus,
});
export type ExternalSource = z.infer<typeof ExternalSource>;
/** A thread folded from envelopes bridged from an external relay (server/external/bridged-threads.ts). */
export const BridgedThread = z.object({
  id: z.string(),
  serviceId: z.string(),
  status: z.enum(THREAD_STATUSES),
  state: AgoraThreadState,
  updatedAt: z.number(),
  untrusted: z.number(),
  source: ExternalSource,
});
export type BridgedThread = z.infer<typeof BridgedThread>;
export const BridgedThreadList = z.object({ threads: z.array(BridgedThread) });
export const BridgedEvent = z.object({
  seq: z.number(),
  receivedAt: z.number(),
  /** As fetched; the browser verifies it again before anything is offered on it. */
  envelope: z.unknown(),
  trusted: z.boolean(),
  /** Why the bridge did not trust it, or why the thread machine refused it; null when applied. */
  reason: z.string().nullable(),
  applied: z.boolean(),
});
export type BridgedEvent = z.infer<typeof BridgedEvent>;
export const BridgedThreadDetail = z.object({
  thread: AgoraThreadView.omit({ version: true, deadlineAt: true }).extend({
    serviceId: z.string(),
    untrusted: z.number(),
  }),
  events: z.array(BridgedEvent),
  source: ExternalSource,
});
export type BridgedThreadDetail = z.infer<typeof BridgedThreadDetail>;
/** A negotiation on an external service, and whether its signed history replays here. */
export const ExternalNegotiation = z.object({
  id: z.string(),
  source: ExternalSource,
  // Parsed on its own: one service's odd answer must not hide every other negotiation.
  negotiation: NegotiationSummary.nullable().catch(null),
  verified: z.boolean(),
  reason: z.string().nullable(),
});
export type ExternalNegotiation = z.infer<typeof ExternalNegotiation>;
export const ExternalNegotiationList = z.object({ negotiations: z.array(ExternalNegotiation) });

export const DemoStarted = z.object({ negotiation_id: z.string(), names: z.record(z.string(), z.string()) });
export type DemoStarted = z.infer<typeof DemoStarted>;
/** The demo's own identities by DID (its negotiation parties); empty without the demo agents. */
export const DemoNames = z.object({ names: z.record(z.string(), z.string()) });
export type DemoNames = z.infer<typeof DemoNames>;

// The OACoP read models (shared/oacop/scheduling-projection.ts, task-projection.ts) as they are
// answered. Optional keys the projections leave out are exactOptional: a key is absent or holds a
// value, as the projections' own types say (exactOptionalPropertyTypes), so what the browser
// parses is the projection's type and goes to shared/oacop's functions unchanged.

/** An OACoP time slot: ISO 8601 UTC start and end (shared/oacop/messages.ts Slot). */
const Slot = z.object({ start: z.string(), end: z.string() });
/** A slot with who is free in it (shared/oacop/intersect-availability.ts CandidateSlot). */
const CandidateSlot = Slot.extend({ optionalFree: z.array(z.string()), missingRequired: z.array(z.string()) });
const ProposalStatus = z.enum(['INTERESTED', 'DECLINED', 'TENTATIVE']);
const ParticipantPhase = z.enum(['INVITED', ...ProposalStatus.options, 'CONFIRMED', 'CANCELLED']);
/** §2.2 CollaborationObject, as the proposal or assignment carried it (shared/oacop/prose-schemas.ts). */
const CollaborationObject = z.object({
  type: z.enum(['Event', 'Task']),
  title: z.string().exactOptional(),
  description: z.string().exactOptional(),
  duration: z.string().exactOptional(),
  location: z.string().exactOptional(),
  icalComponent: z.string().exactOptional(),
  parentTaskId: z.string().exactOptional(),
  dependencies: z.array(z.string()).exactOptional(),
});
/** §2.3 Constraint. */
const Constraints = z.object({
  timeWindow: Slot.exactOptional(),
  participants: z.array(z.string()).exactOptional(),
  requiredParticipants: z.array(z.string()).exactOptional(),
});
/** What a refusal or a failed derivation names: ProtocolError's code and message. */
const Problem = z.object({ code: z.string(), message: z.string() });
const THREAD_BASE = {
  threadId: z.string(),
  /** The DID that signed the first proposal; only it may re-propose or confirm (§3.4.1). */
  initiator: z.string(),
  revision: z.number(),
  object: CollaborationObject,
  constraints: Constraints,
  /** Answers to the current proposal, by responding DID. */
  responses: z.record(z.string(), z.object({ status: ProposalStatus, slots: z.array(Slot) })),
};
/** The thread as every agent's state machine holds it (shared/oacop/scheduling-thread.ts ThreadState). */
export const SchedulingThreadState = z.discriminatedUnion('status', [
  z.object({ ...THREAD_BASE, status: z.literal('PROPOSED') }),
  z.object({ ...THREAD_BASE, status: z.literal('CONFIRMED'), finalSlot: Slot }),
  z.object({
    ...THREAD_BASE,
    status: z.literal('CANCELLED'),
    reason: z.string(),
    cancelledBy: z.string(),
    finalSlot: Slot.exactOptional(),
  }),
]);
export type SchedulingThreadState = z.infer<typeof SchedulingThreadState>;
/** One participant as an observer of every message sees it (ParticipantView). */
export const SchedulingParticipant = z.object({
  did: z.string(),
  required: z.boolean(),
  phase: ParticipantPhase,
  /** The highest revision this participant has shown it holds; 0 before any. */
  revision: z.number(),
  response: z
    .object({ status: ProposalStatus, slots: z.array(Slot), respondingToRevision: z.number() })
    .exactOptional(),
  /** The last OACoPError this participant sent. */
  lastError: Problem.extend({ revision: z.number().exactOptional(), at: z.number() }).exactOptional(),
});
export type SchedulingParticipant = z.infer<typeof SchedulingParticipant>;
const CARRIED_TYPES = [
  'ProposeCollaboration',
  'ProposalResponse',
  'ConfirmCollaboration',
  'CancelCollaboration',
  'AssignTask',
  'TaskUpdate',
  'OACoPError',
  'OACoPReceipt',
] as const;
/** One carried message in a read model's log (scheduling-projection.ts LogEntry). */
export const OacopLogEntry = z.object({
  seq: z.number(),
  envelopeId: z.string(),
  at: z.number(),
  from: z.string(),
  /** The envelope's recipient; absent when it named none. */
  to: z.string().optional(),
  type: z.enum(CARRIED_TYPES),
  revision: z.number().exactOptional(),
  /** `copy`: the same message fanned out to another participant. */
  outcome: z.enum(['applied', 'copy', 'refused', 'noted']),
  error: Problem.exactOptional(),
});
export type OacopLogEntry = z.infer<typeof OacopLogEntry>;
/** One scheduling thread (shared/oacop/scheduling-projection.ts SchedulingThreadView). */
export const SchedulingThread = z.object({
  threadId: z.string(),
  state: SchedulingThreadState,
  participants: z.array(SchedulingParticipant),
  /** Common slots of the current answers, or why there are none; null before any answer. */
  suggestion: z
    .union([
      z.object({ candidates: z.array(CandidateSlot), nearestAlternatives: z.array(CandidateSlot) }),
      z.object({ error: Problem }),
    ])
    .nullable(),
  log: z.array(OacopLogEntry),
  openedAt: z.number(),
  updatedAt: z.number(),
});
export type SchedulingThread = z.infer<typeof SchedulingThread>;
/** A row of the scheduling thread list (server/routes/scheduling.ts): the thread without its log. */
export const SchedulingThreadSummary = z.object({
  threadId: z.string(),
  status: z.enum(['PROPOSED', 'CONFIRMED', 'CANCELLED']),
  revision: z.number(),
  initiator: z.string(),
  title: z.string().nullable(),
  duration: z.string().nullable(),
  timeWindow: Slot.nullable(),
  finalSlot: Slot.nullable(),
  participants: z.array(SchedulingParticipant.pick({ did: true, required: true, phase: true, revision: true })),
  bestSlot: CandidateSlot.nullable(),
  openedAt: z.number(),
  updatedAt: z.number(),
});
export type SchedulingThreadSummary = z.infer<typeof SchedulingThreadSummary>;
export const SchedulingThreadList = z.object({ threads: z.array(SchedulingThreadSummary) });
export const SchedulingThreadAnswer = z.object({ thread: SchedulingThread });

export const TASK_PHASES = ['ASSIGNED', 'ACCEPTED', 'IN_PROGRESS', 'BLOCKED', 'COMPLETED', 'DECLINED'] as const;
const TaskPhase = z.enum(TASK_PHASES);
/** One task as manager and worker hold it, with what the board derives (task-projection.ts TaskView). */
export const TaskView = z.object({
  threadId: z.string(),
  manager: z.string(),
  worker: z.string(),
  object: CollaborationObject,
  deadline: z.string(),
  status: TaskPhase,
  /** Percent, 0–100 (§4.2). */
  progress: z.number(),
  comment: z.string().exactOptional(),
  revision: z.number().exactOptional(),
  /** Dependencies that are not COMPLETED (unknown ones included). */
  blockedBy: z.array(z.string()),
  blocked: z.boolean(),
  assignedAt: z.number(),
  updatedAt: z.number(),
  lastError: Problem.extend({ at: z.number() }).exactOptional(),
});
export type TaskView = z.infer<typeof TaskView>;
/** A task and its subtasks by parentTaskId (shared/oacop/task-tree.ts TaskNode). */
export interface TaskNode {
  readonly task: TaskView;
  readonly children: readonly TaskNode[];
}
export const TaskNode: z.ZodType<TaskNode, TaskNode> = z.object({
  task: TaskView,
  get children() {
    return z.array(TaskNode);
  },
});
/** The thread still stands at the revision the console planned from (decisions-server.md §57). */
export const ThreadStanding = z.object({ threadId: z.string(), revision: z.number(), status: z.string() });
export const ThreadStandingQuery = z.object({ revision: z.string().regex(/^\d{1,9}$/) });
/** The board (shared/oacop/task-projection.ts TaskBoard). */
export const TaskBoardAnswer = z.object({
  tasks: z.array(TaskView),
  /** Task ids by phase, in assignment order. */
  columns: z.record(TaskPhase, z.array(z.string())),
  /** The forest by parentTaskId; treeError instead when parents form a cycle. */
  tree: z.array(TaskNode),
  treeError: Problem.exactOptional(),
  /** Set when dependencies form a cycle (such tasks never unblock). */
  dependencyError: Problem.exactOptional(),
  log: z.array(OacopLogEntry),
});
export type TaskBoardAnswer = z.infer<typeof TaskBoardAnswer>;

/** A proof-of-burn in the local ledger that stands in for OAPP (OACoP §6.2; server/store/oacop-store.ts). */
export const BurnRecord = z.object({
  txId: z.string(),
  burnedBy: z.string(),
  amount: z.string().describe('Decimal string of OAP credits'),
  /** Milliseconds since the epoch, as the relay's clock read it. */
  burnedAt: z.number(),
  /** The threadId the burn paid for, once an invitation used it. */
  usedFor: z.string().nullable(),
});
export type BurnRecord = z.infer<typeof BurnRecord>;
export const Balance = z.object({ did: z.string(), balance: z.string().describe('Decimal string of OAP credits') });
export type Balance = z.infer<typeof Balance>;

const SESSION = { 401: 'UNAUTHORIZED' };
const FACILITATOR = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN, CSRF_REJECTED',
  413: 'PAYLOAD_TOO_LARGE',
};
const PROXY = { 403: 'SERVICE_READ_ONLY', 404: 'NOT_FOUND', 502: 'SERVICE_BAD_ANSWER', 503: 'SERVICE_UNAVAILABLE' };
/** What an external service answered, with its status, re-serialised as JSON (decisions-server.md §40). */
export const ForwardedAnswer = z.record(z.string(), z.unknown());
export type ForwardedAnswer = z.infer<typeof ForwardedAnswer>;
const proxied = {
  description: 'What the service answered, with its status, re-serialised as JSON (decisions-server.md §40)',
  schema: ForwardedAnswer,
};

export const CONSOLE_OPERATIONS = [
  operation({
    method: 'get',
    path: '/api/agora/threads',
    errors: 'coded',
    summary: 'Agora threads',
    query: AgoraThreadListQuery,
    responses: { 200: { description: 'Threads', schema: AgoraThreadList } },
    refusals: { ...SESSION, 400: 'INVALID_REQUEST' },
  }),
  operation({
    method: 'get',
    path: '/api/agora/threads/{id}',
    errors: 'coded',
    summary: 'One Agora thread with every envelope',
    responses: { 200: { description: 'The thread', schema: AgoraThreadDetail } },
    refusals: { ...SESSION, 404: 'NOT_FOUND' },
  }),
  operation({
    method: 'get',
    path: '/api/scheduling/threads',
    errors: 'coded',
    summary: 'OACoP scheduling threads',
    responses: { 200: { description: 'Summaries', schema: SchedulingThreadList } },
    refusals: SESSION,
  }),
  operation({
    method: 'get',
    path: '/api/scheduling/threads/{id}',
    errors: 'coded',
    summary: 'One scheduling thread',
    responses: { 200: { description: 'The thread', schema: SchedulingThreadAnswer } },
    refusals: { ...SESSION, 404: 'NOT_FOUND' },
  }),
  operation({
    method: 'get',
    path: '/api/scheduling/threads/{id}/standing',
    errors: 'coded',
    summary: 'Whether the thread still stands at a revision, before the console signs a Confirm or Cancel',
    description:
      'The console asks before it signs a decision planned at `revision` + 1. 409 CONFLICT when another ' +
      'decision moved the thread on, its `details` naming who (`decidedBy` {did, name}) and when (`decidedAt`).',
    query: ThreadStandingQuery,
    responses: { 200: { description: 'Still at that revision', schema: ThreadStanding } },
    refusals: { ...SESSION, 400: 'INVALID_REQUEST', 404: 'NOT_FOUND', 409: 'CONFLICT' },
  }),
  operation({
    method: 'get',
    path: '/api/tasks',
    errors: 'coded',
    summary: 'OACoP task board',
    responses: { 200: { description: 'The board', schema: TaskBoardAnswer } },
    refusals: SESSION,
  }),
  operation({
    method: 'post',
    path: '/api/ledger/burns',
    errors: 'agora',
    summary: 'Burn (OACoP §6.2): a signed REQUEST with intent oapp.burn',
    body: SignedEnvelope,
    responses: { 201: { description: 'Recorded', schema: BurnRecord } },
    refusals: {
      400: 'INVALID_REQUEST',
      402: 'INSUFFICIENT_BALANCE',
      403: 'FORBIDDEN',
      409: 'CONFLICT',
      413: 'INVALID_REQUEST',
      429: 'RATE_LIMITED',
    },
  }),
  operation({
    method: 'get',
    path: '/api/ledger/balances/{did}',
    errors: 'coded',
    summary: "A DID's balance (public)",
    responses: { 200: { description: 'Balance', schema: Balance } },
    refusals: { 400: 'INVALID_REQUEST' },
  }),
  operation({
    method: 'get',
    path: '/api/ledger/burns/{txId}',
    errors: 'coded',
    summary: 'One burn (public)',
    responses: { 200: { description: 'The burn', schema: BurnRecord } },
    refusals: { 404: 'NOT_FOUND' },
  }),
  operation({
    method: 'get',
    path: '/api/services',
    errors: 'coded',
    summary: 'External relays and negotiation services, built-in first',
    responses: { 200: { description: 'Services', schema: ServiceList } },
    refusals: SESSION,
  }),
  operation({
    method: 'post',
    path: '/api/services',
    errors: 'coded',
    summary: 'Add a service (facilitator)',
    body: ServiceInput,
    responses: { 201: { description: 'Added', schema: ServiceAdded } },
    refusals: { ...FACILITATOR, 409: 'CONFLICT' },
  }),
  operation({
    method: 'delete',
    path: '/api/services/{id}',
    errors: 'coded',
    summary: 'Remove a service added here (facilitator)',
    responses: { 204: { description: 'Removed' } },
    refusals: { ...FACILITATOR, 404: 'NOT_FOUND' },
  }),
  operation({
    method: 'get',
    path: '/api/services/watched',
    errors: 'coded',
    summary: 'DIDs followed on external relays',
    responses: { 200: { description: 'Watched', schema: WatchedList } },
    refusals: SESSION,
  }),
  operation({
    method: 'post',
    path: '/api/services/watched',
    errors: 'coded',
    summary: 'Follow a DID (facilitator)',
    body: WatchedInput,
    responses: { 200: { description: 'Watched', schema: WatchedList } },
    refusals: FACILITATOR,
  }),
  operation({
    method: 'delete',
    path: '/api/services/watched/{did}',
    errors: 'coded',
    summary: 'Stop following a DID (facilitator)',
    responses: { 200: { description: 'Watched', schema: WatchedList } },
    refusals: FACILITATOR,
  }),
  operation({
    method: 'get',
    path: '/api/external/threads',
    errors: 'coded',
    summary: 'Threads fetched from external relays',
    responses: { 200: { description: 'Threads', schema: BridgedThreadList } },
    refusals: SESSION,
  }),
  operation({
    method: 'get',
    path: '/api/external/negotiations',
    errors: 'coded',
    summary: 'Negotiations fetched from external services',
    responses: { 200: { description: 'Negotiations', schema: ExternalNegotiationList } },
    refusals: SESSION,
  }),
  operation({
    method: 'get',
    path: '/api/external/{serviceId}/threads/{threadId}',
    errors: 'coded',
    summary: 'One external thread',
    responses: { 200: { description: 'The thread', schema: BridgedThreadDetail } },
    refusals: { ...SESSION, ...PROXY },
  }),
  operation({
    method: 'post',
    path: '/api/external/{serviceId}/events',
    errors: 'coded',
    summary: 'Forward a signed envelope to an external relay',
    body: SignedEnvelope,
    responses: { 200: proxied },
    refusals: { ...FACILITATOR, ...PROXY },
  }),
  operation({
    method: 'get',
    path: '/api/external/{serviceId}/oap/{path}',
    errors: 'coded',
    summary: 'Read from an external negotiation service (path: the rest of /oap/…)',
    responses: { 200: proxied },
    refusals: { ...SESSION, ...PROXY },
  }),
  operation({
    method: 'post',
    path: '/api/external/{serviceId}/oap/{path}',
    errors: 'coded',
    summary: 'Forward a signed RFC 0002 document to an external negotiation service',
    body: Loose,
    responses: { 200: proxied },
    refusals: { ...FACILITATOR, ...PROXY },
  }),
  operation({
    method: 'get',
    path: '/api/demo/names',
    errors: 'coded',
    summary: "The demo's own identities by DID, so the console can name them (empty without the demo)",
    responses: { 200: { description: 'Names by DID', schema: DemoNames } },
    refusals: { 401: 'UNAUTHORIZED' },
  }),
  operation({
    method: 'post',
    path: '/api/demo/negotiation',
    errors: 'coded',
    summary: 'The demo seller opens a pricing negotiation with the operator and offers (facilitator)',
    responses: { 201: { description: 'Opened and offered', schema: DemoStarted } },
    refusals: {
      401: 'UNAUTHORIZED',
      403: 'FORBIDDEN, CSRF_REJECTED',
      413: 'PAYLOAD_TOO_LARGE',
      429: 'RATE_LIMITED',
      503: 'SERVICE_UNAVAILABLE',
    },
  }),
];
