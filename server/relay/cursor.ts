// How `since` tells a cursor from a timestamp (docs/decisions-agora.md, "Cursor"). A cursor is
// `cur_` and the decimal seq of the last envelope a client has seen; a timestamp is the spec's
// ISO 8601 UTC form. They can never be confused: a timestamp starts with a digit.
import { UtcTimestamp, timestampMs } from '@shared/agora/fields';

const CURSOR = /^cur_(0|[1-9]\d{0,15})$/;

export type Since =
  { readonly kind: 'cursor'; readonly seq: number } | { readonly kind: 'timestamp'; readonly ms: number };

export const formatCursor = (seq: number): string => `cur_${seq}`;

/** Reads a `since` value, or undefined when it is neither form. */
export function parseSince(value: string): Since | undefined {
  const cursor = CURSOR.exec(value);
  if (cursor) {
    const seq = Number(cursor[1]);
    return Number.isSafeInteger(seq) ? { kind: 'cursor', seq } : undefined;
  }
  return UtcTimestamp.safeParse(value).success ? { kind: 'timestamp', ms: timestampMs(value) } : undefined;
}
