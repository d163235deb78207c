// The storage contract: named parts (rooms, access, relay, negotiations, oacop, services, webhooks,
// agentImports), each checked once at the boundary (checked-parts.ts). SQLite (embedded default,
// under DATA_DIR) and PostgreSQL (DATABASE_URL) implement it and pass the very same suite
// (store-suite.ts). Every method is async so either engine fits, and every method that decides
// something (spending a budget, consuming a challenge, deciding a review item) is atomic inside
// the engine, so several server instances can share one database.
import type { SpendVerdict } from '@shared/aor/stored-grants';
import type { InboxStore } from './inbox-store';
import type { ActivityKind } from '@shared/contract/activity';
import type { NegotiationStore } from './negotiation-store';
import type { OacopStore } from './oacop-store';
import type { RelayStore } from './relay-store';
import type { ServiceRegistryStore } from './service-registry-store';
import type { WebhookStore } from './webhook-store';
import type { AgentImportStore } from './agent-import-store';

/** Which §3 topic a stored message arrived on. */
export type TopicKind = 'public' | 'public_candidates' | 'control' | 'inbox' | 'heartbeat' | 'work';

export type ModerationMode = 'auto' | 'review';

/** Text fields never hold U+0000 (PostgreSQL text cannot; decisions-server.md §17). */
export interface NewRoomMessage {
  readonly roomId: string;
  readonly topic: string;
  readonly topicKind: TopicKind;
  /**
   * The agent named in the topic (inbox/heartbeat/work), if any; for a candidate, the agent the
   * broker authenticated as its publisher, so a candidate can be decided after a crash.
   */
  readonly topicAgentId: string | null;
  /** Parsed from the envelope when it parses; null for malformed bytes. */
  readonly messageId: string | null;
  readonly type: string | null;
  readonly fromId: string | null;
  /** Exact bytes as received, so "republished byte for byte" can be checked and shown. */
  readonly payload: Uint8Array;
  /** Milliseconds since the epoch, taken by the server when the message arrived. */
  readonly receivedAt: number;
}

export interface StoredRoomMessage extends NewRoomMessage {
  /** Strictly increasing across the whole store; compare as integers. */
  readonly cursor: number;
}

export interface MessageQuery {
  readonly roomId: string;
  /** Messages with cursor < before (scrolling back), newest first. */
  readonly before?: number;
  /**
   * Messages with cursor > after (backfill), oldest first. Only `after` without `before` reads
   * forward; neither, or both, gives the newest page of the range.
   */
  readonly after?: number;
  /** 1 to 10,000. */
  readonly limit: number;
  /** An empty list filters nothing, like an absent one (for topicKinds too). */
  readonly types?: readonly string[];
  /** Matches fromId or topicAgentId. */
  readonly agentId?: string;
  readonly topicKinds?: readonly TopicKind[];
}

export interface MessagePage {
  /** Always ascending by cursor, whichever direction was asked. */
  readonly messages: readonly StoredRoomMessage[];
  readonly hasMore: boolean;
}

/** How much of a room's history is kept (decisions-server.md §25); null: no limit of that kind. */
export interface HistoryRetention {
  /** The room's newest this many messages are kept, older ones deleted by the sweep. */
  readonly maxMessages: number | null;
  /** Messages received longer ago than this many days are deleted by the sweep. */
  readonly maxAgeDays: number | null;
}

export interface Room {
  readonly id: string;
  readonly name: string;
  readonly moderation: ModerationMode;
  readonly createdAt: number;
  /** Absent: the room keeps its whole history. */
  readonly retention?: HistoryRetention;
}

export interface RoomSummary extends Room {
  readonly lastActivityAt: number | null;
  readonly messageCount: number;
}

/** A mic grant as the gateway enforces it (AOR §5.3), with what has been spent. */
export interface GrantRecord {
  readonly roomId: string;
  readonly agentId: string;
  readonly taskId: string;
  readonly maxMessages: number;
  readonly allowedTypes: readonly string[];
  /** Unix seconds, as in the spec's envelope. */
  readonly expiresAt: number;
  readonly spent: number;
  readonly grantedAt: number;
  readonly grantMessageId: string;
  /** Set when the grant ended: revoked, expired or budget used up. */
  readonly endedAt: number | null;
  readonly endReason: string | null;
}

/** A spend's verdict, decided by shared/aor/stored-grants.ts on either engine. */
export type SpendResult = SpendVerdict;

export type ApprovalResult =
  | { readonly spend: Extract<SpendResult, { ok: true }>; readonly stored: StoredRoomMessage }
  | { readonly spend: Extract<SpendResult, { ok: false }>; readonly stored?: undefined };

/** A review item as the gateway files it; the store assigns id and status. */
export type NewReviewItem = Omit<ReviewItem, 'id' | 'status' | 'decidedBy' | 'decidedAt' | 'reason'>;

/**
 * The gateway's decision on a candidate, stored with the candidate itself (recordCandidate).
 * `approve` spends the grant inside the transaction; when the spend is refused (the budget ran out
 * or the grant ended meanwhile), `refused` builds the reject that is stored instead.
 */
export type CandidateDecision =
  | {
      readonly kind: 'approve';
      readonly agentId: string;
      readonly taskId: string;
      readonly nowSeconds: number;
      readonly approved: NewRoomMessage;
      readonly refused: (reason: Extract<SpendResult, { ok: false }>['reason']) => NewRoomMessage;
    }
  | { readonly kind: 'reject'; readonly reject: NewRoomMessage }
  | { readonly kind: 'review'; readonly item: NewReviewItem };

/** Whether a candidate is one history already holds (recordCandidate). */
export const isStored = (message: NewRoomMessage | StoredRoomMessage): message is StoredRoomMessage =>
  'cursor' in message;

/**
 * How the gateway decides a candidate from what the transaction reads: the grant the candidate
 * names (none when it did not parse) and its room. `decide` is pure and synchronous, and may run
 * twice (a group commit replays pieces after a failure).
 */
export interface CandidateJudgement {
  readonly grantKey: { readonly agentId: string; readonly taskId: string } | undefined;
  readonly decide: (grant: GrantRecord | undefined, room: Room | undefined) => CandidateDecision;
}

export interface CandidateRecord {
  readonly decision: CandidateDecision;
  readonly candidate: StoredRoomMessage;
  /** What the gateway publishes: the approved copy on public or a reject on control; none for review. */
  readonly outgoing?: StoredRoomMessage;
  /** Set for `approve`. */
  readonly spend?: SpendResult;
  /** Set for `review`. */
  readonly reviewItem?: ReviewItem;
}

/** Why and by whom an agent is kept off the broker (decisions-server.md §62). */
export interface AgentSuspension {
  /** Epoch ms. */
  readonly at: number;
  /** The facilitator's did, or `cli`. */
  readonly by: string;
  readonly reason: string;
}

export interface AgentCredential {
  readonly agentId: string;
  /**
   * `sha256$digestB64` for a server-made password, `scrypt$N$r$p$saltB64$hashB64` for any other
   * (server/auth/agent-password.ts): never the password itself.
   */
  readonly passwordHash: string;
  readonly createdAt: number;
  /** Set while the agent is suspended: refused at CONNECT, its connections closed. */
  readonly suspended: AgentSuspension | null;
  /**
   * Epoch ms of the last "disconnect now": a connection made before it changed is closed
   * (decisions-server.md §62). Null until the first.
   */
  readonly disconnectedAt: number | null;
}

/** What a put writes: a rotation keeps the suspension and the disconnect marker. */
export type NewAgentCredential = Pick<AgentCredential, 'agentId' | 'passwordHash' | 'createdAt'>;

/** A page of credentials in agent id order (decisions-server.md §87). */
export interface AgentCredentialPage {
  /** Only ids after this one (keyset): the last id of the previous page. */
  readonly after?: string;
  /** Only ids that start with this, compared by code point as ids are ordered. */
  readonly prefix?: string;
  readonly limit: number;
}

/** How many agents have a credential, and how many of those are suspended. */
export interface AgentCredentialCounts {
  readonly total: number;
  readonly suspended: number;
}

export type OperatorRole = 'facilitator' | 'observer';

export interface Operator {
  readonly did: string;
  readonly role: OperatorRole;
  readonly createdAt: number;
  /**
   * The display name other operators see (shared/contract/operator-name.ts), null until given.
   * Read always; on putOperator, absent keeps the stored name.
   */
  readonly name?: string | null;
}

export interface Session {
  readonly did: string;
  readonly role: OperatorRole;
  readonly expiresAt: number;
}

export interface AuditEntry {
  readonly id: number;
  readonly at: number;
  readonly actorDid: string;
  readonly action: string;
  readonly roomId: string | null;
  /** Cursor or message id in the room timeline this action produced, for linking. */
  readonly messageId: string | null;
  readonly details: Readonly<Record<string, unknown>>;
}

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** The activity log's view of an audit entry (decisions-server.md §83): its family and subject. */
export interface ActivityRecord extends AuditEntry {
  readonly kind: ActivityKind | null;
  readonly target: string | null;
}

/** Every filter is an index probe; entries newest first, keyset by id. */
export interface ActivityFilter {
  readonly actorDid?: string;
  readonly kind?: ActivityKind;
  readonly target?: string;
  readonly roomId?: string;
  readonly limit: number;
  readonly before?: number;
}

/** Why an enrollment token was refused (decisions-server.md §84). */
export type EnrollmentRefusal = 'unknown' | 'used' | 'expired';

/** A link not yet used nor expired, as the Operators screen lists it (never the token). */
export interface PendingInvite {
  /** The first 16 hex characters of the token's hash: enough to name it, useless to enroll. */
  readonly id: string;
  readonly role: OperatorRole;
  readonly expiresAt: number;
  readonly createdAt: number | null;
  readonly createdBy: string | null;
}

/** A server's last sign of life in this store (decisions-server.md §85). */
export interface ServerBeat {
  readonly instance: string;
  readonly baseUrl: string;
  readonly pid: number;
  readonly beatAt: number;
}

export interface ReviewItem {
  readonly id: number;
  readonly roomId: string;
  readonly agentId: string;
  readonly taskId: string;
  readonly messageId: string;
  readonly payload: Uint8Array;
  readonly submittedAt: number;
  readonly status: 'pending' | 'approved' | 'rejected' | 'expired';
  readonly decidedBy: string | null;
  readonly decidedAt: number | null;
  readonly reason: string | null;
}

/** The longest window the health queries read (decisions-server.md §64). */
export const ACTIVITY_WINDOW_MS = 3_600_000;

/** A room's history over a window, as the health panel shows it (RoomStore.roomActivity). */
export interface RoomActivity {
  /** Minutes with at least one message, oldest first; `at` is the minute's start (epoch ms, UTC minute). */
  readonly perMinute: readonly { readonly at: number; readonly messages: number }[];
  /** Approved copies on `public`: a public row with the message id of an earlier candidate in the room. */
  readonly approved: number;
  /** `reject` envelopes on control by their payload's reason, most first; `unknown` when it names none. */
  readonly rejected: readonly { readonly reason: string; readonly count: number }[];
}

/** An agent's rejects over a window (RoomStore.rejectsByAgent). */
export interface AgentRejectCount {
  readonly agentId: string;
  readonly rejects: number;
}

/** Rooms, their message history, mic grants and review items (`store.rooms`). */
export interface RoomStore {
  ensureRoom(room: Omit<Room, 'createdAt'> & { readonly createdAt?: number }): Promise<Room>;
  getRoom(id: string): Promise<Room | undefined>;
  setModeration(roomId: string, mode: ModerationMode): Promise<void>;
  /** Sets or (null) clears a room's history retention; ROOM_NOT_FOUND for an unknown room. */
  setRetention(roomId: string, retention: HistoryRetention | null): Promise<void>;
  /**
   * Deletes, in every room with a retention, the oldest messages beyond it at `now` (and lowers
   * the room's message count); only history rows, never audit entries, review items or grants.
   * In every room, `reject` rows on control older than a day go too, and activity buckets older
   * than a day (decisions-server.md §74). Answers the rooms where something was deleted, and how much.
   */
  applyRetention(now: number): Promise<readonly { readonly roomId: string; readonly deleted: number }[]>;
  listRooms(): Promise<RoomSummary[]>;
  appendMessage(message: NewRoomMessage): Promise<StoredRoomMessage>;
  listMessages(query: MessageQuery): Promise<MessagePage>;

  // Mic grants: learned from control, spent atomically.
  /**
   * Stores a grant. Over an existing one for the same key, a different and not older grant
   * message replaces it with spent = 0 and no end; the same message again (a QoS 1 redelivery)
   * or an older one changes nothing. Returns the grant in force.
   */
  putGrant(grant: Omit<GrantRecord, 'spent' | 'endedAt' | 'endReason'>): Promise<GrantRecord>;
  getGrant(roomId: string, agentId: string, taskId: string): Promise<GrantRecord | undefined>;
  listGrants(filter: { readonly roomId?: string; readonly active?: boolean }): Promise<GrantRecord[]>;
  /**
   * Atomically spends one message if the grant is live at `nowSeconds` (through the whole second
   * expiresAt) and has budget left. Refusals name the first of: no grant, expired, ended, budget.
   */
  spendGrant(roomId: string, agentId: string, taskId: string, nowSeconds: number): Promise<SpendResult>;
  /** Ends a live grant; returns false when it was not live (already ended or unknown). */
  endGrant(roomId: string, agentId: string, taskId: string, reason: string, at: number): Promise<boolean>;
  /** Live grants whose expires_at < nowSeconds, for the sweeper. */
  listExpiredLiveGrants(nowSeconds: number): Promise<GrantRecord[]>;

  /**
   * A candidate and the gateway's decision on it, in one transaction (decisions-server.md §30): the
   * decision sees the grant and room as the spend does, and a crash leaves neither a stored
   * candidate without its decision nor a spent budget without its approved copy. A candidate that
   * history already holds (it has a cursor: stored before a crash and never decided, found by
   * recovery) is not stored again; only its decision is.
   */
  recordCandidate(
    candidate: NewRoomMessage | StoredRoomMessage,
    judgement: CandidateJudgement,
  ): Promise<CandidateRecord>;

  // Room health, read from aggregates kept in the appending transaction (decisions-server.md §64, §73).
  /**
   * Messages per minute (every topic kind), approved copies and rejects by reason, received in
   * the whole UTC minutes from `sinceMs`'s through `nowMs`'s; a window longer than
   * ACTIVITY_WINDOW_MS is cut to the minutes from `nowMs - ACTIVITY_WINDOW_MS`'s on.
   */
  roomActivity(roomId: string, sinceMs: number, nowMs: number): Promise<RoomActivity>;
  /**
   * Rejects received since the UTC minute holding `sinceMs` (in one room, or every room; buckets
   * are kept a day), each counted for the agent the broker authenticated as the publisher of the
   * candidate it refused: the newest earlier candidate in the room with the reject's `message_id`
   * when the reject was stored. A reject without a message id, or whose candidate was not stored
   * or had no known publisher, counts for nobody. Most rejects first, then by agent id.
   */
  rejectsByAgent(sinceMs: number, roomId?: string): Promise<AgentRejectCount[]>;

  // Review mode: each item is decided once.
  addReviewItem(item: NewReviewItem): Promise<ReviewItem>;
  listReviewItems(roomId: string, status?: ReviewItem['status']): Promise<ReviewItem[]>;
  /** One item of a room, whatever its status; undefined when the room holds no item with that id. */
  getReviewItem(roomId: string, id: number): Promise<ReviewItem | undefined>;
  /**
   * A facilitator's approval, in one transaction: the pending item is claimed, the grant spent and
   * the approved copy appended. When the grant refuses, the item ends `rejected` with that reason.
   * Undefined when the item was not pending (decided once, whoever comes second).
   */
  approveReviewItem(
    id: number,
    by: string,
    at: number,
    nowSeconds: number,
    message: (item: ReviewItem) => NewRoomMessage,
  ): Promise<(ApprovalResult & { readonly item: ReviewItem }) | undefined>;
  /** Moves a pending item to `status`; returns undefined when it was already decided. */
  decideReviewItem(
    id: number,
    status: 'approved' | 'rejected' | 'expired',
    by: string | null,
    reason: string | null,
    at: number,
  ): Promise<ReviewItem | undefined>;
}

/** Agent credentials, operators, enrollment, login challenges, sessions and the audit log (`store.access`). */
export interface AccessStore {
  /** Creates or rotates (a new hash); a rotation keeps the suspension and the disconnect marker. */
  putAgentCredential(credential: NewAgentCredential): Promise<void>;
  getAgentCredential(agentId: string): Promise<AgentCredential | undefined>;
  /**
   * The credentials of these agents (those that have one), in one read: the broker's sweep asks
   * for every connected agent at once (decisions-server.md §72).
   */
  getAgentCredentials(agentIds: readonly string[]): Promise<AgentCredential[]>;
  listAgentCredentials(): Promise<AgentCredential[]>;
  /** One page of credentials in id order, an index range on the primary key (decisions-server.md §87). */
  pageAgentCredentials(page: AgentCredentialPage): Promise<AgentCredential[]>;
  countAgentCredentials(): Promise<AgentCredentialCounts>;
  removeAgentCredential(agentId: string): Promise<boolean>;
  /**
   * Replaces the stored hash `from` with `to`, the same password's faster form (decisions-server.md
   * §71); false when the hash is no longer `from` (rotated or removed meanwhile). Not a revocation:
   * it keeps the suspension and the disconnect marker, and is not heard by watchAccessChanges.
   */
  upgradeAgentPasswordHash(agentId: string, from: string, to: string): Promise<boolean>;
  /** Suspends (or with null resumes) an agent; false when it has no credential. Heard by watchAccessChanges. */
  setAgentSuspension(agentId: string, suspension: AgentSuspension | null): Promise<boolean>;
  /**
   * Moves the agent's disconnect marker to `at` (or past the current one, so it always changes);
   * false when it has no credential. Heard by watchAccessChanges.
   */
  markAgentDisconnected(agentId: string, at: number): Promise<boolean>;

  // Operators, enrollment, login challenges and sessions.
  putOperator(operator: Operator): Promise<void>;
  getOperator(did: string): Promise<Operator | undefined>;
  listOperators(): Promise<Operator[]>;
  /** The operators among these dids (those that exist), in one read, in no particular order. */
  getOperators(dids: readonly string[]): Promise<Operator[]>;
  /** Sets (or with null clears) an operator's display name; false when there is no such operator. */
  setOperatorName(did: string, name: string | null): Promise<boolean>;
  /** Changes an operator's role; false when there is no such operator. Heard by watchAccessChanges. */
  setOperatorRole(did: string, role: OperatorRole): Promise<boolean>;
  /** Removes an operator and their sessions; false when there is none. Heard by watchAccessChanges. */
  removeOperator(did: string): Promise<boolean>;
  /** `invite` says who made the link and when, for the Operators screen; the CLI's first link has none. */
  createEnrollment(
    tokenHash: string,
    role: OperatorRole,
    expiresAt: number,
    invite?: { readonly createdAt: number; readonly createdBy: string },
  ): Promise<void>;
  /**
   * Single use: returns the role once, then undefined. A used token is kept (marked, with who
   * used it) until a week after it expired, so a second try can be told it was used.
   */
  consumeEnrollment(tokenHash: string, now: number, usedBy?: string): Promise<OperatorRole | undefined>;
  /** Why consumeEnrollment refused this token at `now`. */
  enrollmentRefusal(tokenHash: string, now: number): Promise<EnrollmentRefusal>;
  /** Links neither used nor expired at `now`, newest first (at most 100). */
  listPendingInvites(now: number): Promise<PendingInvite[]>;
  /** Withdraws an unused link by its id; false when no unused link has it. */
  revokeInvite(id: string): Promise<boolean>;
  /** A server says it serves this store at `baseUrl` (every HEARTBEAT); one row per instance. */
  beatServer(beat: ServerBeat): Promise<void>;
  /** The servers heard from since `since`, newest beat first. */
  liveServers(since: number): Promise<ServerBeat[]>;
  /** A server that stops says so, so the CLI need not wait for its beat to age. */
  forgetServer(instance: string): Promise<void>;
  createChallenge(nonce: string, expiresAt: number): Promise<void>;
  /**
   * Single use: returns the challenge's expiresAt once for a live challenge (the server needs it
   * to recompute the signed bytes), then undefined. Unknown, used and expired alike: undefined.
   */
  consumeChallenge(nonce: string, now: number): Promise<number | undefined>;
  createSession(tokenHash: string, session: Session): Promise<void>;
  /** The session with the operator's current role; undefined once expired or the operator is gone. */
  getSession(tokenHash: string, now: number): Promise<Session | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  /**
   * Calls `listener` soon after another process (the CLI, another instance) may have revoked a
   * credential: removed, rotated, suspended or disconnected an agent's, changed an operator's role,
   * ended a session. The server then checks its open MQTT connections at once (decisions-server.md
   * §39, §62). SQLite: any
   * commit by another connection (PRAGMA data_version, polled); PostgreSQL: NOTIFY. Returns how to stop.
   */
  watchAccessChanges?(listener: () => void): () => void;

  // Audit log of facilitator actions, read across rooms as the activity log.
  appendAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Newest first, keyset by id; every filter is served by an index (decisions-server.md §83). */
  listActivity(filter: ActivityFilter): Promise<ActivityRecord[]>;
  /**
   * For each of these agents, the newest entry of kind `agent` naming it as target (those that
   * have one), in one read: one probe of audit_log_by_target per agent inside the engine, where a
   * listActivity per agent would be a round trip each (decisions-server.md §87).
   */
  lastAgentActivity(agentIds: readonly string[]): Promise<ActivityRecord[]>;
  /** Newest first; the last id of a page is the `before` of the next. */
  listAudit(filter: {
    readonly roomId?: string;
    readonly limit: number;
    readonly before?: number;
  }): Promise<AuditEntry[]>;
}

/** A store's named parts, as each engine builds them and every caller names them (`store.rooms.putGrant`). */
export interface StoreParts {
  /** Rooms, their history, mic grants and review items (RoomStore above). */
  readonly rooms: RoomStore;
  /** Who may act: credentials, operators, sessions, and the audit log. */
  readonly access: AccessStore;
  /** The Agora relay, its threads and the agent directory (relay-store.ts). */
  readonly relay: RelayStore;
  /** RFC 0002 negotiations and the transparency log (negotiation-store.ts). */
  readonly negotiations: NegotiationStore;
  /** OACoP's ledger, calendars and agents' own thread states (oacop-store.ts). */
  readonly oacop: OacopStore;
  /** External relays and negotiation services, their cursors and bridged envelopes (service-registry-store.ts). */
  readonly services: ServiceRegistryStore;
  /** Outgoing webhooks: endpoints and the outbox of their deliveries (webhook-store.ts). */
  readonly webhooks: WebhookStore;
  /** Outside A2A agents imported into the directory by their Agent Card URL (agent-import-store.ts). */
  readonly agentImports: AgentImportStore;
  /** Operators' dismissals of inbox items (inbox-store.ts). */
  readonly inbox: InboxStore;
}

export interface Store extends StoreParts {
  /**
   * Hears each commit of the engine's group commits (history appends, candidate records, relay
   * appends): its duration in seconds and how many writes it held (the store commit latency
   * metric, server/metrics/). Optional: a store without group commits has nothing to tell.
   */
  onCommit?(listener: (commit: { readonly seconds: number; readonly pieces: number }) => void): () => void;
  close(): Promise<void>;
}
