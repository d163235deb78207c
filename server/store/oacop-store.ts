// OACoP's part of the storage contract: what must survive a restart besides the
// relayed envelopes themselves. The read models are rebuilt from the envelopes (their source
// events), so they are not stored. Every decision (is this burn still unused, is this slot
// still free) is taken inside one engine transaction, so several instances can share a database.
import type { Result } from '@shared/errors';
import type { BookingDecision, CalendarBooking } from '@shared/oacop/calendar-booking';

export type { BookingDecision, CalendarBooking };

/** A proof-of-burn in the local ledger that stands in for OAPP (OACoP §6.2). */
export interface BurnRecordRow {
  readonly txId: string;
  readonly burnedBy: string;
  /** Decimal string of OAP credits. */
  readonly amount: string;
  readonly burnedAt: number;
  /** The threadId the burn paid for, once an invitation used it. */
  readonly usedFor: string | null;
}

/** `insufficient`: the burner's balance is below the amount; nothing was stored or debited. */
export type BurnOutcome = 'stored' | 'duplicate' | 'conflict' | 'insufficient';

export interface OacopStore {
  /**
   * Same txId with the same burner and amount is `duplicate`; with others `conflict`. A new burn
   * is stored and debited from the burner's balance in one transaction, or refused as
   * `insufficient` (a DID burns only what it holds, decisions-oacop.md A6).
   */
  recordBurn(burn: Omit<BurnRecordRow, 'usedFor'>): Promise<BurnOutcome>;
  /** Adds `amount` (a ledger amount, ledger-amount.ts) to the DID's balance; answers the new balance. */
  credit(did: string, amount: string, at: number): Promise<string>;
  /** The DID's balance as an amount; "0" for a DID never credited. */
  balanceOf(did: string): Promise<string>;
  getBurn(txId: string): Promise<BurnRecordRow | undefined>;
  /** Marks the burn as paying for `threadId`; false when it already paid for another thread or is unknown. */
  useBurn(txId: string, threadId: string): Promise<boolean>;

  /** One transaction: the owner's other bookings are read, `decide` runs, and only then is `booking` stored (replacing the same thread's). */
  book(booking: CalendarBooking, decide: BookingDecision): Promise<Result<void>>;
  /** Removes the owner's booking for a thread; false when there was none. */
  unbook(owner: string, threadId: string): Promise<boolean>;
  /** Bookings that overlap [from, to), by start. */
  listBookings(owner: string, from: number, to: number): Promise<CalendarBooking[]>;

  /** An agent's own view of a thread or task (JSON), so its revision rule survives a restart. */
  putAgentState(agent: string, key: string, state: unknown, at: number): Promise<void>;
  getAgentState(agent: string, key: string): Promise<unknown>;
}
