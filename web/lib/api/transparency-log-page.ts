// GET /oap/transparency-log?from=&limit=: one page of log entries and the head (public);
// shape: shared/contract/negotiation.ts.
import { LogPage } from '@shared/contract/negotiation';
import { getJson } from './http';

export type { LogPage } from '@shared/contract/negotiation';

export const fetchLogPage = (from: number, limit: number, signal?: AbortSignal) =>
  getJson(`/oap/transparency-log?from=${from}&limit=${limit}`, LogPage, signal ? { signal } : undefined);
