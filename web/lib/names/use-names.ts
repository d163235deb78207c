// The naming service as screens use it (decisions-web.md §29): `useNames()` for many ids,
// `useName(id)` for one. Both read the one book (name-cache.ts) and make sure the sources every
// screen needs are loaded once: the session, the Agora directory and the demo's names.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { directoryQuery } from '@web/lib/api/agora-agents';
import { demoNamesQuery } from '@web/lib/api/demo-names';
import { sessionQuery } from '@web/lib/api/auth-session';
import { nameIn, shortId, type NameBook, type NameSource } from './name-book';
import { bookFrom, NAMES_KEY } from './name-cache';

const EMPTY: NameBook = {};

export interface Names {
  /** The best name for `id`, else its short form. */
  readonly nameOf: (id: string) => string;
  /** Whether a source names `id` (and from which), or undefined. */
  readonly sourceOf: (id: string) => NameSource | undefined;
  readonly book: NameBook;
}

export function useNames(): Names {
  const client = useQueryClient();
  useQuery(sessionQuery);
  // The directory refreshes itself on the screens that show it; here a name is enough.
  useQuery({ ...directoryQuery, refetchInterval: false, staleTime: 60_000 });
  useQuery(demoNamesQuery);
  const { data } = useQuery({
    queryKey: NAMES_KEY,
    // watchNames writes the book; should it have been dropped from the cache, it is rebuilt.
    queryFn: () => bookFrom(client),
    staleTime: Infinity,
    initialData: () => bookFrom(client),
  });
  const book = data ?? EMPTY;
  const nameOf = useCallback((id: string) => nameIn(book, id), [book]);
  const sourceOf = useCallback((id: string) => book[id]?.source, [book]);
  return { nameOf, sourceOf, book };
}

/** One id's name and whether it is known (else the short id). */
export function useName(id: string): { readonly name: string; readonly known: boolean; readonly short: string } {
  const { book } = useNames();
  const entry = book[id];
  return { name: entry?.name ?? shortId(id), known: entry !== undefined, short: shortId(id) };
}

/** The book as plain names by id, for the pure story builders. */
export const bookNames = (book: NameBook): Record<string, string> =>
  Object.fromEntries(Object.entries(book).map(([id, e]) => [id, e.name]));
