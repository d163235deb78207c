// Argument checks made once, at the store's boundary (checked-parts.ts), before either engine
// queries: a bad page size, cursor or clock fails the same way (RangeError) on SQLite and on
// PostgreSQL, and no engine repeats them.
import { operatorNameProblem } from '@shared/contract/operator-name';

export function checkLimit(limit: number, max: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    throw new RangeError(`limit must be an integer from 1 to ${max}, got ${limit}`);
}

export function checkCursor(value: number | undefined, name: string): void {
  if (value !== undefined && !Number.isSafeInteger(value))
    throw new RangeError(`${name} must be an integer cursor, got ${value}`);
}

/** AOR §7 compares whole seconds: a grant is live through the whole second `expires_at`. */
export function wholeSeconds(now: number): number {
  if (!Number.isFinite(now) || now < 0) throw new RangeError(`nowSeconds must be finite Unix seconds, got ${now}`);
  return Math.floor(now);
}

/** At most this many values in one of a message query's filter lists. */
export const MAX_FILTER_VALUES = 100;

export function checkFilterList(values: readonly unknown[] | undefined): void {
  if ((values?.length ?? 0) > MAX_FILTER_VALUES)
    throw new RangeError(`a filter list holds at most ${MAX_FILTER_VALUES} values`);
}

/** A display name is stored as the console sent it once checked: trimmed, 1–60 characters, no controls. */
export function checkOperatorName(name: string | null | undefined): void {
  if (name === null || name === undefined) return;
  const problem = operatorNameProblem(name);
  if (problem !== undefined) throw new RangeError(`an operator name ${problem}`);
  if (name !== name.trim()) throw new RangeError('an operator name is stored trimmed');
}
