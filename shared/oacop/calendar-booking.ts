// A booking in an agent's or a resource's calendar: the slot a confirmed scheduling thread holds
// (OACoP §3.4.1). The participant agent (agents/oacop) decides a booking and the server's stores
// keep it, so the shape lives here, below both.
import type { Result } from '../errors';

/** One booking in an agent's or a resource's calendar (a confirmed scheduling thread). */
export interface CalendarBooking {
  readonly owner: string;
  readonly threadId: string;
  /** Epoch ms, half-open [start, end). */
  readonly start: number;
  readonly end: number;
  readonly revision: number;
  readonly title: string;
  readonly bookedAt: number;
}

/** Runs inside the booking transaction with the owner's other bookings; ok books, a failure stores nothing. */
export type BookingDecision = (others: readonly CalendarBooking[]) => Result<void>;
