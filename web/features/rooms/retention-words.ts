// A room's history retention in words, and the settings form's two fields read into one.
import type { Retention } from '@shared/contract/rooms';

const count = (n: number) => n.toLocaleString('en-US');

/** "Keeps all history", or what the sweep keeps. */
export function retentionInWords(retention: Retention | null | undefined): string {
  const messages = retention?.maxMessages ?? null;
  const days = retention?.maxAgeDays ?? null;
  if (messages === null && days === null) return 'Keeps all history';
  const age = days === null ? '' : `${count(days)} ${days === 1 ? 'day' : 'days'}`;
  if (messages === null) return `Keeps the last ${age} of history`;
  const newest = `Keeps the newest ${count(messages)} ${messages === 1 ? 'message' : 'messages'}`;
  return days === null ? newest : `${newest}, none older than ${age}`;
}

export const MAX_RETENTION_MESSAGES = 1_000_000_000;
export const MAX_RETENTION_DAYS = 36_500;

export type RetentionForm =
  | { readonly ok: true; readonly retention: Retention | null }
  | { readonly ok: false; readonly messagesError?: string; readonly daysError?: string };

function whole(text: string, max: number): number | null | string {
  const t = text.trim();
  if (t === '') return null;
  if (!/^\d{1,10}$/.test(t) || Number(t) < 1 || Number(t) > max)
    return `A whole number from 1 to ${count(max)}, or empty for no limit.`;
  return Number(t);
}

/** The form's fields (empty: no limit of that kind); both empty keeps everything (null). */
export function readRetentionForm(messages: string, days: string): RetentionForm {
  const m = whole(messages, MAX_RETENTION_MESSAGES);
  const d = whole(days, MAX_RETENTION_DAYS);
  if (typeof m === 'string' || typeof d === 'string') {
    return {
      ok: false,
      ...(typeof m === 'string' ? { messagesError: m } : {}),
      ...(typeof d === 'string' ? { daysError: d } : {}),
    };
  }
  return { ok: true, retention: m === null && d === null ? null : { maxMessages: m, maxAgeDays: d } };
}
