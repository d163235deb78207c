// An agreement in words (decisions-web.md §32, §34): its terms as labelled fields with units, taken
// from the manifest's term fields where it names them (shared/negotiation/term-fields.ts), and one
// sentence for a whole agreement: "Agreement between Acme Weather API and you:
// weather.forecast.detailed, 50,000 calls a month at 0.0042 EUR per call, from Sat 28 Nov".
// Pure: names, zone and clock come in. Agent-written values stay strings and are rendered as text.
import type { TermField } from '@shared/negotiation/term-fields';
import { termName } from './term-words';
import { dayWords } from '@web/lib/time-words';

export interface TermLine {
  readonly key: string;
  /** "Price per call", "Calls per month": the unit moves to the value. */
  readonly label: string;
  /** "0.0042 EUR", "50,000", "Sat 28 Nov"; null when a party hid it (a redacted field). */
  readonly value: string | null;
}

const ISO_DAY_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
const capital = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** "Price per call (EUR)" → ["Price per call", "EUR"]. */
function splitUnit(label: string): [string, string | undefined] {
  const m = /^(.*?)\s*\(([^()]{1,20})\)$/.exec(label.trim());
  return m ? [m[1]!, m[2]!] : [label, undefined];
}

const numberWords = (n: number) => n.toLocaleString('en-GB', { maximumFractionDigits: 12 });

function withUnit(value: string, unit: string | undefined): string {
  if (!unit) return value;
  return unit === '%' ? `${value} %` : `${value} ${unit}`;
}

/** One value in words: numbers grouped, days as days, the unit after it. */
export function valueWords(
  value: unknown,
  unit: string | undefined,
  field: TermField | undefined,
  zone: string,
  now: number,
): string {
  if (typeof value === 'number') return withUnit(numberWords(value), unit);
  if (typeof value === 'string') {
    if ((field?.type === 'date' || ISO_DAY_TIME.test(value)) && Number.isFinite(Date.parse(value)))
      return dayWords(Date.parse(value), zone, now);
    if (field?.type === 'integer' && /^-?\d+$/.test(value)) return withUnit(numberWords(Number(value)), unit);
    return withUnit(value, unit);
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value === null) return 'none';
  return JSON.stringify(value);
}

/**
 * The terms as labelled lines: the manifest's fields first, in its order, then any other term by
 * its key in words. `hidden` keys (redacted by a party) have no value.
 */
export function termLines(
  terms: Readonly<Record<string, unknown>>,
  fields: readonly TermField[] | undefined,
  zone: string,
  now: number,
  hidden: readonly string[] = [],
): TermLine[] {
  const named = new Map((fields ?? []).map((f) => [f.name, f]));
  const keys = [
    ...(fields ?? []).map((f) => f.name).filter((k) => k in terms || hidden.includes(k)),
    ...[...Object.keys(terms), ...hidden].filter((k, i, all) => !named.has(k) && all.indexOf(k) === i),
  ];
  return keys.map((key) => {
    const field = named.get(key);
    const [label, unit] = splitUnit(field?.label ?? termName(key));
    return {
      key,
      label: capital(label),
      value: hidden.includes(key) && !(key in terms) ? null : valueWords(terms[key], unit, field, zone, now),
    };
  });
}

/** "You" as a subject reads "you" inside a sentence. */
const inSentence = (name: string) => (name === 'You' ? 'you' : name);

/** Money a key names its currency of: `price_per_call_eur` "0.0042" → "0.0042 EUR per call". */
function moneyWords(key: string, value: unknown): string | undefined {
  const m = /^(.*?)_?(eur|usd|gbp|chf|jpy)$/i.exec(key);
  if (!m || (typeof value !== 'string' && typeof value !== 'number')) return undefined;
  const what = m[1]!
    .replace(/^price_?/, '')
    .replace(/_/g, ' ')
    .trim();
  return `${String(value)} ${m[2]!.toUpperCase()}${what && what !== 'fee' ? ` ${what}` : ''}`;
}

export interface AgreementSentenceInput {
  /** The parties' names, as the naming service gives them ("You" for the operator). */
  readonly parties: readonly [string, string];
  readonly terms: Readonly<Record<string, unknown>>;
  /** RFC 3339; absent or hidden: not said. */
  readonly effectiveFrom?: string | null | undefined;
  readonly zone: string;
  readonly now: number;
}

/** The agreement in one sentence, what it is for first, then volume, price and start. */
export function agreementSentence(input: AgreementSentenceInput): string {
  const [a, b] = input.parties;
  const between = `Agreement between ${a === 'You' ? b : a} and ${inSentence(a === 'You' ? a : b)}`;
  const t = input.terms;
  const parts: string[] = [];
  if (typeof t.action === 'string' && t.action.trim()) parts.push(t.action.trim());
  const volume = typeof t.calls_per_month === 'number' ? `${numberWords(t.calls_per_month)} calls a month` : '';
  const money = Object.entries(t)
    .map(([k, v]) => moneyWords(k, v))
    .filter((m): m is string => m !== undefined);
  if (volume && money.length) parts.push(`${volume} at ${money.join(', ')}`);
  else if (volume || money.length) parts.push(volume || money.join(', '));
  if (parts.length === 0) {
    const plain = Object.entries(t).filter(([, v]) => typeof v === 'string' || typeof v === 'number');
    for (const [k, v] of plain.slice(0, 2)) {
      const [label, unit] = splitUnit(termName(k));
      parts.push(`${label} ${valueWords(v, unit, undefined, input.zone, input.now)}`);
    }
  }
  const from = input.effectiveFrom ?? (typeof t.effective_from === 'string' ? t.effective_from : null);
  const fromMs = from ? Date.parse(from) : Number.NaN;
  const tail = Number.isFinite(fromMs) ? `, from ${dayWords(fromMs, input.zone, input.now)}` : '';
  return parts.length ? `${between}: ${parts.join(', ')}${tail}` : `${between}${tail}`;
}
