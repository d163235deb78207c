// /api/inbox: everything that waits for a human, across protocols, for the operator who asks
// (decisions-server.md, "The inbox"). One list plus a live stream of changes to it; the items'
// words are the server's, agent-written text comes apart in `quote` and is shown as text.
import { z } from 'zod';
import { operation } from './operation';

/** What can wait for a human. Each kind names the one action that settles it. */
export const INBOX_KINDS = [
  /** A review-mode candidate (AOR §7): approve or reject. */
  'review',
  /** An RFC 0002 agreement that waits for this operator's co-signature. */
  'cosign',
  /** An OACoP scheduling thread whose answers are in and whose slot waits for approval. */
  'slot',
  /** An agent's `clarifying_question` to the room: answer with `say`. */
  'question',
  /** A mic grant about to run out of time or budget: extend or let it end. */
  'grant',
  /** An agent rejected repeatedly in a short time: look, revoke or suspend. */
  'rejects',
  /** A bridged relay or negotiation service that is down. */
  'service',
] as const;
export const InboxKind = z.enum(INBOX_KINDS);
export type InboxKind = z.infer<typeof InboxKind>;

/** `now`: someone is blocked on it; `soon`: it will expire or pile up; `info`: worth knowing. */
export const URGENCIES = ['now', 'soon', 'info'] as const;
export const Urgency = z.enum(URGENCIES);
export type Urgency = z.infer<typeof Urgency>;

/** Where the item lives and what acting on it inline needs, by kind. */
export const InboxRef = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('review'),
    roomId: z.string(),
    candidateId: z.string(),
    agentId: z.string(),
    /** What the item is about, for a decision in words (decisions-web.md §32). */
    taskId: z.string().optional(),
    /** The goal of the `task` that assigned it (AOR §5.2), when the room's history still has it. */
    taskGoal: z.string().nullable().optional(),
    /** The candidate's AOR §6 message_type, as the agent wrote it. */
    messageType: z.string().nullable().optional(),
    /** Messages the grant allows still (max_messages − spent), when the grant is known. */
    budgetLeft: z.number().int().nullable().optional(),
  }),
  z.object({
    kind: z.literal('cosign'),
    negotiationId: z.string(),
    /** The operator's did:key whose co-signature it waits for: only that operator sees it. */
    party: z.string(),
    /** The external negotiation service's id, or null for the built-in one. */
    service: z.string().nullable(),
    /** What is to be signed, for a decision in words (decisions-web.md §32). */
    category: z.string().optional(),
    counterparty: z.string().optional(),
    /** The agreement's terms as agreed (RFC 0002 §3.4). */
    terms: z.record(z.string(), z.unknown()).optional(),
    /** RFC 3339, from the agreement. */
    effectiveFrom: z.string().optional(),
    effectiveUntil: z.string().nullable().optional(),
  }),
  z.object({ kind: z.literal('slot'), threadId: z.string(), revision: z.number().int() }),
  z.object({ kind: z.literal('question'), roomId: z.string(), messageId: z.string(), agentId: z.string() }),
  z.object({
    kind: z.literal('grant'),
    roomId: z.string(),
    grantId: z.string(),
    agentId: z.string(),
    expiresAt: z.number().nullable(),
    budgetLeft: z.number().nullable(),
  }),
  z.object({ kind: z.literal('rejects'), roomId: z.string(), agentId: z.string(), count: z.number().int() }),
  z.object({ kind: z.literal('service'), serviceId: z.string() }),
]);
export type InboxRef = z.infer<typeof InboxRef>;

/** A soft claim: another facilitator is deciding this item; it lapses by itself at `until`. */
export const InboxClaim = z.object({ did: z.string(), name: z.string(), until: z.number() });
export type InboxClaim = z.infer<typeof InboxClaim>;

export const InboxItem = z.object({
  /** Stable for as long as its cause lasts, e.g. `review:{roomId}:{candidateId}`. */
  id: z.string(),
  kind: InboxKind,
  urgency: Urgency,
  /** The server's sentence, e.g. "agent.analyst's result waits for review in ops". */
  title: z.string(),
  /** Agent-written text it is about (a candidate's body, a question), trimmed; shown as text only. */
  quote: z.string().nullable(),
  /** Milliseconds since the epoch when its cause began: the item's age. */
  since: z.number(),
  /** When it stops mattering or lapses by itself (a grant's end, a proposal's expiry), if ever. */
  dueAt: z.number().nullable(),
  /** The console path that opens it. */
  href: z.string(),
  ref: InboxRef,
  claim: InboxClaim.nullable(),
});
export type InboxItem = z.infer<typeof InboxItem>;

/** The one-line summary of a quiet console. */
export const InboxSummary = z.object({
  roomsActive: z.number().int(),
  agentsOnline: z.number().int(),
  rejectsLastHour: z.number().int(),
});
export type InboxSummary = z.infer<typeof InboxSummary>;

export const InboxList = z.object({
  /** Most urgent first, then oldest first (shared/inbox/order.ts). */
  items: z.array(InboxItem),
  summary: InboxSummary,
  /** Grows with every change; the stream's events carry the version they lead to. */
  version: z.number().int(),
});
export type InboxList = z.infer<typeof InboxList>;

/**
 * The stream's events (`text/event-stream`, the SSE `event:` field is `type`). The first is
 * always a `snapshot`; after a reconnect the client gets a fresh one, so it never replays.
 */
export const InboxStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), list: InboxList }),
  z.object({ type: z.literal('upsert'), version: z.number().int(), item: InboxItem }),
  z.object({ type: z.literal('remove'), version: z.number().int(), id: z.string() }),
  z.object({ type: z.literal('summary'), version: z.number().int(), summary: InboxSummary }),
]);
export type InboxStreamEvent = z.infer<typeof InboxStreamEvent>;

export const ClaimBody = z.object({ itemId: z.string().min(1).max(512) });

const SESSION = { 401: 'UNAUTHORIZED' };

export const INBOX_OPERATIONS = [
  operation({
    method: 'get',
    path: '/api/inbox',
    errors: 'coded',
    summary: 'What waits for this operator, most urgent first',
    description: 'Observers get the same list; acting on an item needs the facilitator role.',
    responses: { 200: { description: 'The inbox', schema: InboxList } },
    refusals: SESSION,
  }),
  operation({
    method: 'get',
    path: '/api/inbox/stream',
    errors: 'coded',
    summary: 'The inbox, live (text/event-stream of InboxStreamEvent, a snapshot first)',
    responses: {
      200: { description: 'An event stream; each `data:` is one InboxStreamEvent', schema: InboxStreamEvent },
    },
    refusals: SESSION,
  }),
  operation({
    method: 'post',
    path: '/api/inbox/dismissals',
    errors: 'coded',
    summary: "Dismiss an item: it leaves every operator's inbox until a new fact brings it back (audited)",
    body: ClaimBody,
    responses: {
      204: { description: 'Dismissed, or no such item waits (gone meanwhile): nothing left to dismiss' },
    },
    refusals: { 400: 'INVALID_REQUEST', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN, CSRF_REJECTED', 429: 'RATE_LIMITED' },
  }),
  operation({
    method: 'post',
    path: '/api/inbox/claims',
    errors: 'coded',
    summary: 'Say "I am deciding this" to the other facilitators (a soft claim that lapses)',
    body: ClaimBody,
    responses: {
      200: { description: 'The claim', schema: InboxClaim },
      204: { description: 'No such item waits (decided meanwhile): nothing to claim' },
    },
    refusals: { 400: 'INVALID_REQUEST', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN, CSRF_REJECTED' },
  }),
];
