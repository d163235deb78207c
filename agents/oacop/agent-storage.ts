// What an OACoP agent keeps across a restart, as the agent needs it: its own view of each thread or
// task (so the revision rule holds after a restart), and for a calendar its bookings and the burns
// it accepted. The server's OacopStore (server/store/oacop-store.ts) provides all of it; another
// host can back it with anything that runs `book`'s decision inside one transaction.
import type { BookingDecision, CalendarBooking } from '@shared/oacop/calendar-booking';
import type { Result } from '@shared/errors';

export interface AgentStateStore {
  /** An agent's own view of a thread or task (JSON). */
  putAgentState(agent: string, key: string, state: unknown, at: number): Promise<void>;
  getAgentState(agent: string, key: string): Promise<unknown>;
}

export interface ParticipantStore extends AgentStateStore {
  /** Marks the burn as paying for `threadId`; false when it already paid for another thread or is unknown. */
  useBurn(txId: string, threadId: string): Promise<boolean>;
  /** One transaction: the owner's other bookings are read, `decide` runs, and only then is `booking` stored. */
  book(booking: CalendarBooking, decide: BookingDecision): Promise<Result<void>>;
  /** Removes the owner's booking for a thread; false when there was none. */
  unbook(owner: string, threadId: string): Promise<boolean>;
  /** Bookings that overlap [from, to), by start. */
  listBookings(owner: string, from: number, to: number): Promise<CalendarBooking[]>;
}
