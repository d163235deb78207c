// The terms a Tool names for each category, so a client can offer a field per term instead of
// raw JSON. RFC 0002 §3.6 declares categories but no term schema; `negotiation.terms` is this
// project's extension of the declaration (docs/decisions-demo.md §13). Pure: field values in,
// terms or per-field problems out, the same check in the browser form and in tests.
import { z } from 'zod';
import type { Terms } from './primitives';

export const TermField = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
  label: z.string().min(1).max(80),
  /**
   * `decimal`: a decimal string with at most `decimals` places, as §3.4 writes prices
   * ("0.0040"); `integer` and `number`: JSON numbers; `date`: a calendar day, typed as
   * YYYY-MM-DD and sent as that day's start in UTC (RFC 3339, as `effective_from` must be:
   * agreement.ts termsWindowProblem); `text`: a string.
   */
  type: z.enum(['decimal', 'integer', 'number', 'date', 'text']),
  decimals: z.int().min(0).max(12).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  required: z.boolean().optional(),
  hint: z.string().max(200).optional(),
});
export type TermField = z.infer<typeof TermField>;

/** Fields by category; a category without an entry is written as raw JSON only. */
export const TermFields = z.record(z.string(), z.array(TermField).max(32));
export type TermFields = z.infer<typeof TermFields>;

export type FieldValues = Readonly<Record<string, string>>;

export type TermsCheck =
  | { readonly ok: true; readonly terms: Terms }
  | { readonly ok: false; readonly problems: Readonly<Record<string, string>> };

const DECIMAL = /^\d+(?:\.(\d+))?$/;
const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.0+)?Z$/;

/** Whether YYYY-MM-DD names a real day (no 30 February). */
function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

function checkRange(field: TermField, n: number): string | undefined {
  if (field.min !== undefined && n < field.min) return `At least ${field.min}.`;
  if (field.max !== undefined && n > field.max) return `At most ${field.max}.`;
  return undefined;
}

/** One field's value as a term, or the problem in words. Empty is "absent" (or missing when required). */
export function termValue(field: TermField, raw: string): { value?: Terms[string]; problem?: string } {
  const text = raw.trim();
  if (text === '') return field.required ? { problem: 'Required.' } : {};
  switch (field.type) {
    case 'decimal': {
      const m = DECIMAL.exec(text);
      if (!m) return { problem: 'A decimal number, e.g. 0.0045.' };
      if (field.decimals !== undefined && (m[1]?.length ?? 0) > field.decimals)
        return { problem: `At most ${field.decimals} decimal places.` };
      const problem = checkRange(field, Number(text));
      return problem ? { problem } : { value: text };
    }
    case 'integer':
    case 'number': {
      if (!(field.type === 'integer' ? INTEGER : NUMBER).test(text))
        return { problem: field.type === 'integer' ? 'A whole number.' : 'A number.' };
      const n = Number(text);
      if (!Number.isSafeInteger(Math.trunc(n))) return { problem: 'Too large.' };
      const problem = checkRange(field, n);
      return problem ? { problem } : { value: n };
    }
    case 'date':
      return isCalendarDate(text) ? { value: `${text}T00:00:00Z` } : { problem: 'A date, such as 28 Nov 2026.' };
    case 'text':
      return text.length > 500 ? { problem: 'At most 500 characters.' } : { value: text };
    default: {
      const unhandled: never = field.type;
      throw new Error(`unhandled term type ${String(unhandled)}`);
    }
  }
}

/** The terms the fields and the other (advanced) terms make; a field wins over the same key in `other`. */
export function termsFromFields(fields: readonly TermField[], values: FieldValues, other: Terms = {}): TermsCheck {
  const problems: Record<string, string> = {};
  const terms: Record<string, Terms[string]> = { ...other };
  for (const field of fields) {
    const { value, problem } = termValue(field, values[field.name] ?? '');
    if (problem) problems[field.name] = problem;
    else if (value !== undefined) terms[field.name] = value;
    else delete terms[field.name];
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, terms };
}

/** Splits terms into field values (for the named ones) and the rest (for the advanced box). */
export function fieldsFromTerms(fields: readonly TermField[], terms: Terms): { values: FieldValues; other: Terms } {
  const values: Record<string, string> = {};
  const other: Record<string, Terms[string]> = { ...terms };
  for (const field of fields) {
    const v = terms[field.name];
    if (field.type === 'date') {
      // Only a day's start fits a date field; a time of day stays with the other terms.
      const day = typeof v === 'string' ? MIDNIGHT.exec(v)?.[1] : undefined;
      if (day !== undefined) {
        values[field.name] = day;
        delete other[field.name];
      }
    } else if (typeof v === 'string' || typeof v === 'number') {
      values[field.name] = String(v);
      delete other[field.name];
    }
  }
  return { values, other };
}
