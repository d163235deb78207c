// OACoP's burns and calendar bookings as rows, and their mapping to oacop-store.ts's records:
// the same columns on both engines, so one mapping serves both.
import type { BurnRecordRow, CalendarBooking } from '../oacop-store';

export interface BurnRow {
  tx_id: string;
  burned_by: string;
  amount: string;
  burned_at: number;
  used_for: string | null;
}

export interface BookingRow {
  owner: string;
  thread_id: string;
  start_ms: number;
  end_ms: number;
  revision: number;
  title: string;
  booked_at: number;
}

export const toBurn = (row: BurnRow): BurnRecordRow => ({
  txId: row.tx_id,
  burnedBy: row.burned_by,
  amount: row.amount,
  burnedAt: row.burned_at,
  usedFor: row.used_for,
});
export const toBooking = (row: BookingRow): CalendarBooking => ({
  owner: row.owner,
  threadId: row.thread_id,
  start: row.start_ms,
  end: row.end_ms,
  revision: row.revision,
  title: row.title,
  bookedAt: row.booked_at,
});
