// The negotiation service's part of the storage contract, reached as
// `store.negotiations`: negotiations as their signed state (shared/negotiation/state.ts) with
// a compare-and-set version, and the append-only transparency log. Every decision is one engine
// transaction: a save is a conditional write on the version, and the log entry an acceptance
// produces is appended in that same transaction, so no agreement is ever saved without its
// entry or logged for a negotiation that lost a race (docs/decisions-negotiation.md §19, §22).
import type { LogEntry, LogHead } from '@shared/negotiation/transparency-log';
import type { NegotiationLimits } from '@shared/negotiation/manifest';
import type { NegotiationState, NegotiationStatus } from '@shared/negotiation/state';
import type { ProtocolError, Result } from '@shared/errors';

export interface NegotiationRecord {
  readonly id: string;
  readonly state: NegotiationState;
  /** The history length: the compare-and-set token of `save`. */
  readonly version: number;
  /** The limits frozen at open (decisions §12): every later event is checked against these. */
  readonly limits: NegotiationLimits;
  /** Epoch ms of the latest live proposal's valid_until; null when OPEN or terminal. The sweeper reads it. */
  readonly deadlineAt: number | null;
  /** The agreement's position in the transparency log, once accepted. */
  readonly logIndex: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface NegotiationFilter {
  readonly status?: NegotiationStatus;
  /** A party's DID. */
  readonly party?: string;
  readonly category?: string;
  /** 1 to 500. */
  readonly limit: number;
}

/**
 * Runs inside the save transaction with the current log head: the entry to append, or the
 * refusal, which saves nothing. Must be pure.
 */
export type LogAppend = (head: LogHead | null) => Result<LogEntry>;

export interface NegotiationSave {
  readonly state: NegotiationState;
  readonly deadlineAt: number | null;
  readonly now: number;
  /** An acceptance: the agreement's log entry, appended in the same transaction. */
  readonly appendLog?: LogAppend;
  /**
   * A co-signature: publishes the new signature into the logged entry's public view, decided on
   * the entry as stored in the same transaction (a concurrent redaction is never lost).
   */
  readonly updateLogView?: { readonly index: number; readonly decide: (entry: LogEntry) => Result<LogEntry> };
}

export type SaveOutcome =
  | { readonly outcome: 'stored'; readonly record: NegotiationRecord; readonly entry?: LogEntry }
  /** Someone saved first: reload and decide again. Nothing was written. */
  | { readonly outcome: 'conflict' }
  | { readonly outcome: 'refused'; readonly error: ProtocolError };

export interface LogPage {
  readonly entries: readonly LogEntry[];
  /** Entries in the log when the page was read. */
  readonly size: number;
  readonly head: LogHead | null;
}

export interface NegotiationStore {
  /** Stores a new negotiation; false when the id is already taken (nothing written). */
  create(record: Omit<NegotiationRecord, 'version' | 'logIndex' | 'updatedAt'>): Promise<boolean>;
  get(id: string): Promise<NegotiationRecord | undefined>;
  /** Newest activity first. */
  list(filter: NegotiationFilter): Promise<NegotiationRecord[]>;
  /** Writes only if the negotiation is still at `expectedVersion`. */
  save(id: string, expectedVersion: number, next: NegotiationSave): Promise<SaveOutcome>;
  /** Live negotiations whose deadlineAt < now, oldest deadline first (the sweeper's work). */
  listDue(now: number, limit: number): Promise<NegotiationRecord[]>;

  logHead(): Promise<LogHead | null>;
  /** Entries with index >= from, ascending; `limit` 1 to 10,000. */
  logPage(from: number, limit: number): Promise<LogPage>;
  /** Entry `from` to the head, read at one instant (an inclusion proof's links). */
  logFrom(from: number): Promise<LogEntry[]>;
  logEntry(index: number): Promise<LogEntry | undefined>;
  /**
   * The redaction path (§6): runs `decide` on the entry as stored and replaces only its public
   * view, in one transaction. The engine refuses any other change to a log row.
   */
  updateLogView(index: number, decide: (entry: LogEntry) => Result<LogEntry>): Promise<Result<LogEntry>>;
}
