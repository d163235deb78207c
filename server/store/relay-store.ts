// The Agora relay's part of the storage contract: envelopes, threads and the
// directory. Kept beside store.ts so the relay's operations read as one unit; the Store exposes
// them as `store.relay`. Every decision (is this id new, may the thread take this message, is
// this registration newer) is taken inside one engine transaction, never by a read in JS
// followed by a write, so several server instances can share one PostgreSQL database.
import type { AgoraError } from '@shared/agora/reject-reasons';
import type { ThreadState } from '@shared/agora/thread-state';
import type { Result } from '@shared/errors';

/** `event`: relayed by /events. `registration`: a directory registration (never relayed). */
export type EnvelopeKind = 'event' | 'registration';

export interface NewRelayEnvelope {
  readonly id: string;
  readonly kind: EnvelopeKind;
  /** SHA-256 hex of the JCS form of the whole signed envelope (envelopeDigest). */
  readonly digest: string;
  readonly type: string;
  readonly sender: string;
  readonly recipient: string | null;
  readonly threadId: string;
  /** The envelope's own `ts`, epoch ms. */
  readonly ts: number;
  /** The relay's clock when it accepted the envelope. */
  readonly receivedAt: number;
  /** ts + meta.ttl: after this the relay no longer delivers it (Agora "Relay drops expired messages"). */
  readonly expiresAt: number;
  /** The JCS text of the signed envelope: what is served, byte for byte, and what the digest covers. */
  readonly json: string;
}

export interface StoredRelayEnvelope extends NewRelayEnvelope {
  /**
   * Strictly increasing in commit order across the store: a reader that has seen seq n has
   * seen every envelope with a smaller seq (a PostgreSQL engine must serialise the counter).
   */
  readonly seq: number;
}

export interface ThreadRecord {
  readonly threadId: string;
  readonly state: ThreadState;
  /** Bumped on every write: the compare-and-set token of updateThread. */
  readonly version: number;
  readonly openedAt: number;
  readonly updatedAt: number;
  /** When the sweeper must tick it (threadDeadline); null when no timeout applies. */
  readonly deadlineAt: number | null;
}

export interface ThreadWrite {
  readonly state: ThreadState;
  readonly deadlineAt: number | null;
}

/**
 * Runs inside the append transaction with the thread as stored (undefined before its first
 * message): returns the state to store, or the refusal, which stores nothing. Must be pure: an
 * engine may run it again after rolling back (the SQLite group commit does when one append throws).
 * `null` stores the envelope without touching any thread row: OACoP carriers ride outside the
 * Agora thread machine (docs/decisions-oacop.md §A1).
 */
export type ThreadDecision = (thread: ThreadRecord | undefined) => Result<ThreadWrite | null, AgoraError>;

export type AppendOutcome =
  | { readonly outcome: 'stored'; readonly envelope: StoredRelayEnvelope; readonly thread?: ThreadRecord }
  /** The same id with the same digest was stored before: idempotent, nothing written. */
  | { readonly outcome: 'duplicate'; readonly envelope: StoredRelayEnvelope }
  /** The same id with another digest: nothing written. */
  | { readonly outcome: 'id_conflict' }
  | { readonly outcome: 'refused'; readonly error: AgoraError };

export interface RelayEventQuery {
  /** Envelopes with seq > afterSeq. */
  readonly afterSeq?: number;
  /** Envelopes whose own `ts` > afterTs (epoch ms): the spec's timestamp `since`, "after this time". */
  readonly afterTs?: number;
  /** Only envelopes still live at this instant (expiresAt >= liveAt). */
  readonly liveAt?: number;
  readonly recipient?: string;
  readonly sender?: string;
  readonly type?: string;
  readonly threadId?: string;
  /** 1 to 1000. */
  readonly limit: number;
}

export interface RelayEventPage {
  /** Ascending by seq; kind `event` only. */
  readonly events: readonly StoredRelayEnvelope[];
  readonly hasMore: boolean;
  /** The highest seq in the store when the page was read (a resume point when events is empty). */
  readonly headSeq: number;
}

export interface DirectoryRecord {
  readonly did: string;
  /** The CapabilityManifest as registered. */
  readonly manifest: Readonly<Record<string, unknown>>;
  readonly scope: 'public' | 'private';
  readonly authorizedAgents: readonly string[];
  readonly aorAgentId: string | null;
  readonly endpoint: string | null;
  /** The registering envelope's ts (epoch ms) and id: a newer (ts, id) replaces an older one. */
  readonly registeredAt: number;
  readonly envelopeId: string;
}

export type RegisterOutcome = 'stored' | 'duplicate' | 'stale' | 'id_conflict';

export interface RelayStore {
  /** The digest stored for an envelope id of any kind, for the replay check before the append. */
  findDigest(id: string): Promise<string | undefined>;
  /**
   * One transaction: an id already stored is `duplicate` (same digest) or `id_conflict`; else
   * the thread row is read, `decide` runs, and only when it accepts are the envelope and the
   * new thread state written together.
   */
  appendEvent(envelope: NewRelayEnvelope, decide: ThreadDecision): Promise<AppendOutcome>;
  listEvents(query: RelayEventQuery): Promise<RelayEventPage>;
  /** Every envelope of a thread in seq order, expired ones included (the thread's record). */
  threadEvents(threadId: string, limit: number): Promise<StoredRelayEnvelope[]>;
  headSeq(): Promise<number>;
  /**
   * Engines that several server instances share push the head as other instances commit (the
   * PostgreSQL store: LISTEN/NOTIFY); returns how to stop. Absent: the caller polls headSeq.
   */
  watchHead?(listener: (headSeq: number) => void): () => void;

  getThread(threadId: string): Promise<ThreadRecord | undefined>;
  /** Newest activity first. `party` matches the client or any agent named in the state. */
  listThreads(filter: {
    readonly party?: string;
    readonly status?: string;
    readonly limit: number;
  }): Promise<ThreadRecord[]>;
  /** Threads whose deadlineAt < now, oldest deadline first. */
  listDueThreads(now: number, limit: number): Promise<ThreadRecord[]>;
  /** Writes `next` only if the thread is still at `expectedVersion`; false when someone got there first. */
  updateThread(threadId: string, expectedVersion: number, next: ThreadWrite, now: number): Promise<boolean>;

  /**
   * One transaction: stores the registration envelope (same duplicate / conflict rules as
   * events) and replaces the DID's record only if this (registeredAt, envelopeId) is newer.
   */
  register(envelope: NewRelayEnvelope, record: DirectoryRecord): Promise<RegisterOutcome>;
  getRegistration(did: string): Promise<DirectoryRecord | undefined>;
  listRegistrations(): Promise<DirectoryRecord[]>;
  /** When each DID last had an event accepted (epoch ms, relay clock); absent when never. */
  lastEventAt(dids: readonly string[]): Promise<Map<string, number>>;
}
