// A transparency-log entry read for people (decisions-web.md §34): its public view's disclosures
// (RFC 0002 §5, shared/negotiation/public-view.ts) taken apart into parties, category, start and
// terms, with the terms a party redacted listed as hidden. Pure; the card renders it.
type Raw = Record<string, unknown>;
const obj = (v: unknown): Raw => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Raw) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const unescape = (token: string) => token.replaceAll('~1', '/').replaceAll('~0', '~');

export interface EntryReading {
  readonly parties: readonly string[];
  readonly category: string | undefined;
  readonly effectiveFrom: string | undefined;
  readonly effectiveUntil: string | null | undefined;
  readonly terms: Readonly<Record<string, unknown>>;
  /** Term keys whose values a party redacted (only their digest is public). */
  readonly hidden: readonly string[];
  readonly agreementId: string | undefined;
  /** Parties whose signature the public view carries. */
  readonly signers: readonly string[];
  /** Confidentiality class and regulated obligations, from the metadata. */
  readonly confidentiality: string | undefined;
}

const isRedacted = (d: unknown) => !('value' in obj(d));

export function readEntry(entry: Raw): EntryReading {
  const view = obj(entry['public']);
  const disclosures = obj(view['disclosures']);
  const value = (pointer: string) => obj(disclosures[pointer])['value'];
  const terms: Record<string, unknown> = {};
  const hidden: string[] = [];
  for (const [pointer, d] of Object.entries(disclosures)) {
    if (pointer === '/terms') {
      if (isRedacted(d)) continue;
      Object.assign(terms, obj(obj(d)['value']));
      continue;
    }
    if (!pointer.startsWith('/terms/')) continue;
    const key = unescape(pointer.slice('/terms/'.length));
    if (isRedacted(d)) hidden.push(key);
    else terms[key] = obj(d)['value'];
  }
  const partiesValue = value('/parties');
  const metadata = obj(value('/metadata'));
  const until = value('/effective_until');
  return {
    parties: Array.isArray(partiesValue) ? partiesValue.filter((p): p is string => typeof p === 'string') : [],
    category: str(metadata['category']),
    effectiveFrom: str(value('/effective_from')),
    effectiveUntil: until === null ? null : str(until),
    terms,
    hidden,
    agreementId: str(value('/agreement_id')),
    signers: Object.keys(obj(view['signatures'])),
    confidentiality: str(metadata['confidentiality']),
  };
}
