// The console's one naming cache (decisions-web.md §29): the query cache already holds the
// session, presence, the Agora directory, the demo's names and room agents; this watches those
// queries and keeps one merged book under NAMES_KEY, so every screen reads the same names and
// none looks anything up itself.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { mergeNames, type NameBook, type NameEntry } from './name-book';
import { demoNames, directoryNames, presenceNames, roomAgentNames, sessionNames } from './name-sources';

export const NAMES_KEY = ['names', 'book'] as const;

/** Which cached queries carry names, and how to read them. */
function readerFor(key: QueryKey): ((data: unknown) => NameEntry[]) | undefined {
  const [a, b, c] = key;
  if (a === 'auth' && b === 'session') return sessionNames;
  if (a === 'presence') return presenceNames;
  if (a === 'agora' && b === 'agents') return directoryNames;
  if (a === 'demo' && b === 'names') return demoNames;
  if (a === 'rooms' && c === 'agents') return roomAgentNames;
  return undefined;
}

/** The book from every name-carrying query now in `client`'s cache. */
export function bookFrom(client: QueryClient): NameBook {
  const entries: NameEntry[] = [];
  for (const query of client.getQueryCache().getAll()) {
    const read = readerFor(query.queryKey);
    if (read && query.state.data !== undefined) entries.push(...read(query.state.data));
  }
  return mergeNames(entries);
}

const same = (a: NameBook | undefined, b: NameBook): boolean => {
  if (!a) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => a[k]?.name === b[k]?.name && a[k]?.source === b[k]?.source);
};

/**
 * Keeps NAMES_KEY current while `client` lives: rebuilt whenever a name-carrying query gets data.
 * Returns the unsubscribe.
 */
export function watchNames(client: QueryClient): () => void {
  const rebuild = () => {
    const book = bookFrom(client);
    if (!same(client.getQueryData<NameBook>(NAMES_KEY), book)) client.setQueryData(NAMES_KEY, book);
  };
  rebuild();
  return client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    if (readerFor(event.query.queryKey)) rebuild();
  });
}

/** Adds names a screen was handed directly (a guided demo run's answer) to the cache. */
export function addDemoNames(client: QueryClient, names: Readonly<Record<string, string>>): void {
  const had = client.getQueryData<{ names: Record<string, string> }>(['demo', 'names', 'guided']);
  client.setQueryData(['demo', 'names', 'guided'], { names: { ...had?.names, ...names } });
}
