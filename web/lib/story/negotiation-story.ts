// The story of an RFC 0002 negotiation: who opened it, each offer in words,
// the agreement and its co-signature, as sentences that name the parties as the live screens do
// (the naming service's book, decisions-web.md §29). Pure: it reads the history items the server
// returns ({ type, document | by, received_at }) by shape.
import { shortId } from '@web/lib/names/name-book';
import { absolute } from '@web/lib/time-words';
import { count, type StoryLine } from './story-line';

export interface NegotiationStoryInput {
  readonly parties: readonly [string, string];
  readonly category: string;
  readonly history: readonly unknown[];
  /** Position in the transparency log, once the agreement is logged. */
  readonly logIndex?: number | null;
  /** Display names by DID (the naming service's); a party without one is its short DID. */
  readonly names?: Readonly<Record<string, string>>;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/** Terms whose key says the unit: `price_per_call_eur` → "0.0040 EUR per call". */
function moneyWords(key: string, value: unknown): string | undefined {
  const m = /^(.*?)_?(eur|usd|gbp|chf)$/i.exec(key);
  if (!m || (typeof value !== 'string' && typeof value !== 'number')) return undefined;
  const what = m[1]!
    .replace(/^price_?/, '')
    .replace(/_/g, ' ')
    .trim();
  return `${String(value)} ${m[2]!.toUpperCase()}${what && what !== 'fee' ? ` ${what}` : ''}`;
}

/**
 * The headline of a set of terms, e.g. "0.0040 EUR per call for 6 months": the money first, then a
 * duration, a time slot or the first plain values. Unknown shapes fall back to a count of terms.
 */
export function termsWords(terms: unknown): string {
  const t = obj(terms);
  if (!t) return 'terms';
  const money: string[] = [];
  for (const [k, v] of Object.entries(t)) {
    const m = moneyWords(k, v);
    if (m) money.push(m);
  }
  const extras: string[] = [];
  if (typeof t.calls_per_month === 'number') extras.push(`${t.calls_per_month.toLocaleString('en')} calls a month`);
  const from = str(t.effective_from);
  if (from && !Number.isNaN(Date.parse(from))) extras.push(`from ${absolute(Date.parse(from))}`);
  if (typeof t.uptime_percent === 'number') extras.push(`${t.uptime_percent} % uptime`);
  const months = typeof t.months === 'number' ? `for ${count(t.months, 'month')}` : '';
  if (money.length === 0 && extras.length === 0 && !months) {
    const plain = Object.entries(t)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
      .slice(0, 2);
    if (plain.length === 0) return count(Object.keys(t).length, 'term');
    return plain.map(([k, v]) => `${k.replace(/_/g, ' ')} ${String(v)}`).join(', ');
  }
  // "0.0040 EUR per call for 6 months, 140,000 calls a month"
  const head = [money.join(', '), months].filter(Boolean).join(' ');
  return [head, ...extras].filter(Boolean).join(', ');
}

/** "You" is the operator's name as a subject; after a verb it reads "you". */
const objectCase = (name: string): string => (name === 'You' ? 'you' : name);

const at = (v: unknown): number => {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) ? ms : 0;
};

/** Sentences for a negotiation's history, oldest first. */
export function negotiationStory(input: NegotiationStoryInput): StoryLine[] {
  const [a, b] = input.parties;
  const name = (did: unknown): string => {
    const d = str(did);
    return d === undefined ? 'A party' : (input.names?.[d] ?? shortId(d));
  };
  const lines: StoryLine[] = [];
  const proposals = new Map<string, Json>();
  let accepted: Json | undefined;
  for (const [i, raw] of input.history.entries()) {
    const item = obj(raw);
    const doc = obj(item?.document);
    const when = at(item?.received_at);
    const key = `h${i}`;
    switch (item?.type) {
      case 'open': {
        const other = doc?.opened_by === a ? b : a;
        lines.push({
          key,
          at: when,
          actor: name(doc?.opened_by),
          text: `${name(doc?.opened_by)} opened a ${input.category} negotiation with ${objectCase(name(other))}.`,
          tone: 'step',
        });
        break;
      }
      case 'propose': {
        if (!doc) break;
        if (str(doc.proposal_id)) proposals.set(str(doc.proposal_id)!, doc);
        const round = typeof doc.round === 'number' ? doc.round : undefined;
        const verb = round === 1 ? 'offered' : 'countered with';
        lines.push({
          key,
          at: when,
          actor: name(doc.from),
          text: `${name(doc.from)} ${verb} ${termsWords(doc.terms)}${round ? ` (round ${round})` : ''}.`,
          tone: 'step',
        });
        break;
      }
      case 'accept': {
        accepted = proposals.get(str(doc?.proposal_id) ?? '');
        lines.push({
          key,
          at: when,
          actor: name(doc?.by),
          text: `Agreed: ${accepted ? termsWords(accepted.terms) : 'the last offer'}.`,
          tone: 'milestone',
        });
        break;
      }
      case 'cosign':
        lines.push({
          key,
          at: when,
          actor: name(item.by),
          text: `${name(item.by)} co-signed the agreement${typeof input.logIndex === 'number' ? `; it is entry ${input.logIndex} of the public log` : ''}.`,
          tone: 'milestone',
        });
        break;
      case 'reject':
        lines.push({
          key,
          at: when,
          actor: name(doc?.by),
          text: `${name(doc?.by)} turned the offer down${str(doc?.reason) ? `: ${str(doc?.reason)!}` : '.'}`,
          tone: 'problem',
        });
        break;
      case 'withdraw':
        lines.push({
          key,
          at: when,
          actor: name(doc?.by),
          text: `${name(doc?.by)} walked away${str(doc?.reason) ? `: ${str(doc?.reason)!}` : '.'}`,
          tone: 'problem',
        });
        break;
      case 'expire':
        lines.push({
          key,
          at: when,
          actor: 'Switchboard',
          text: 'The last offer ran out of time; the negotiation expired.',
          tone: 'problem',
        });
        break;
      default:
        break;
    }
  }
  return lines;
}
