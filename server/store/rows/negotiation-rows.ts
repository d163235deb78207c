// Negotiations and transparency-log entries as rows, and their mapping to negotiation-store.ts's
// records: the same columns on both engines, so one mapping serves both.
import type { NegotiationLimits } from '@shared/negotiation/manifest';
import type { NegotiationState } from '@shared/negotiation/state';
import type { LogEntry } from '@shared/negotiation/transparency-log';
import type { NegotiationRecord } from '../negotiation-store';

export interface NegotiationRow {
  id: string;
  state: string;
  limits: string;
  version: number;
  deadline_at: number | null;
  log_index: number | null;
  created_at: number;
  updated_at: number;
}

export interface LogRow {
  log_index: number;
  prev_hash: string;
  timestamp: string;
  kind: string;
  integrity_hash: string;
  entry_hash: string;
  public: string;
}

export const toRecord = (row: NegotiationRow): NegotiationRecord => ({
  id: row.id,
  state: JSON.parse(row.state) as NegotiationState,
  limits: JSON.parse(row.limits) as NegotiationLimits,
  version: row.version,
  deadlineAt: row.deadline_at,
  logIndex: row.log_index,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const toEntry = (row: LogRow): LogEntry => ({
  index: row.log_index,
  prev_hash: row.prev_hash as LogEntry['prev_hash'],
  timestamp: row.timestamp,
  kind: row.kind as LogEntry['kind'],
  integrity_hash: row.integrity_hash as LogEntry['integrity_hash'],
  entry_hash: row.entry_hash as LogEntry['entry_hash'],
  public: JSON.parse(row.public) as LogEntry['public'],
});
