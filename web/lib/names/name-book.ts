// Choosing a name for an identifier (decisions-web.md §29): several sources may name the same
// DID, and the most trusted wins. The order says who vouches for the name: the operator's own
// session first, then what operators typed for themselves, the Agora directory's manifest names,
// the demo's own identities, and last an AOR agent's self-description. Pure, so it is tested alone.
import { nameKey, shortDid, withDidTail } from '@shared/contract/operator-name';

/** Where a name came from, most trusted first. */
export const NAME_SOURCES = ['you', 'operator', 'directory', 'demo', 'room'] as const;
export type NameSource = (typeof NAME_SOURCES)[number];

export interface NameEntry {
  readonly id: string;
  readonly name: string;
  readonly source: NameSource;
}

/** The chosen name for each id, with the source that gave it. */
export type NameBook = Readonly<Record<string, { readonly name: string; readonly source: NameSource }>>;

/** A name shown as a name: one line, at most 60 characters (an operator name's limit), else none. */
export function cleanName(raw: string | null | undefined): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const line = raw.split(/\r?\n/u)[0]!.trim();
  if (!line) return undefined;
  const chars = [...line];
  return chars.length <= 60 ? line : `${chars.slice(0, 59).join('')}…`;
}

const rank = (s: NameSource): number => NAME_SOURCES.indexOf(s);

/**
 * One book from entries in any order: per id, the entry of the most trusted source wins. Names are
 * not unique (anyone may call themself "Ada", or "You"): where two ids end up with names that read
 * alike, each but the operator's own "You" is shown with its id's last six characters, so nobody
 * passes as someone else (decisions-server.md §82).
 */
export function mergeNames(entries: Iterable<NameEntry>): NameBook {
  const book: Record<string, { name: string; source: NameSource }> = {};
  for (const e of entries) {
    const name = cleanName(e.name);
    if (!name || !e.id) continue;
    const had = book[e.id];
    if (!had || rank(e.source) < rank(had.source)) book[e.id] = { name, source: e.source };
  }
  const holders = new Map<string, number>();
  for (const { name } of Object.values(book)) holders.set(nameKey(name), (holders.get(nameKey(name)) ?? 0) + 1);
  for (const [id, entry] of Object.entries(book))
    if (entry.source !== 'you' && holders.get(nameKey(entry.name))! > 1)
      book[id] = { ...entry, name: withDidTail(entry.name, id) };
  return book;
}

/**
 * An identifier for people when nothing names it: a did:key as `did:key:z6Mk…ABCDEF`, a long id
 * by its start and end, a short one whole.
 */
export function shortId(id: string): string {
  if (id.startsWith('did:')) return shortDid(id);
  return id.length <= 24 ? id : `${id.slice(0, 8)}…${id.slice(-6)}`;
}

/** The name for `id`: the book's, else its short form. */
export const nameIn = (book: NameBook, id: string): string => book[id]?.name ?? shortId(id);
