// GET /oap/transparency-log?from=&limit=: one page of log entries and the head (public).
import { z } from 'zod';
import { getJson } from './http';

export const LogHead = z.object({ index: z.number(), entry_hash: z.string(), timestamp: z.string() });

const Page = z.object({
  entries: z.array(z.record(z.string(), z.unknown())),
  size: z.number(),
  head: LogHead.nullable(),
  next_from: z.number().nullable(),
});
export type LogPage = z.infer<typeof Page>;

export const fetchLogPage = (from: number, limit: number, signal?: AbortSignal) =>
  getJson(`/oap/transparency-log?from=${from}&limit=${limit}`, Page, signal ? { signal } : undefined);
