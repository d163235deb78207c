// "Changed since you last looked": the version and history length of each
// negotiation this browser last showed, in localStorage. Nothing here is sent anywhere.

export interface Seen {
  readonly version: number;
  /** History items shown then; items at or past this index are new. */
  readonly items: number;
}

export interface SeenStore {
  get(id: string): Seen | null;
  set(id: string, seen: Seen): void;
}

const KEY = 'switchboard.negotiations.seen';

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

function readAll(storage: StorageLike): Record<string, Seen> {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, Seen>)
      : {};
  } catch {
    return {};
  }
}

const isSeen = (v: unknown): v is Seen =>
  typeof v === 'object' && v !== null && Number.isInteger((v as Seen).version) && Number.isInteger((v as Seen).items);

/** Keeps at most `max` negotiations, dropping the least recently written. */
export function createSeenStore(storage: StorageLike, max = 500): SeenStore {
  return {
    get(id) {
      const v = readAll(storage)[id];
      return isSeen(v) ? v : null;
    },
    set(id, seen) {
      const all = readAll(storage);
      delete all[id];
      all[id] = seen;
      const ids = Object.keys(all);
      for (const old of ids.slice(0, Math.max(0, ids.length - max))) delete all[old];
      try {
        storage.setItem(KEY, JSON.stringify(all));
      } catch {
        // Storage full or disabled: the marks are a convenience, never a reason to fail.
      }
    },
  };
}

/** Whether a negotiation changed since this browser last showed it (never seen counts as changed). */
export const changedSince = (seen: Seen | null, version: number): boolean => seen === null || version > seen.version;

/** Whether history item `index` is new to this browser. */
export const isNewItem = (seen: Seen | null, index: number): boolean => seen !== null && index >= seen.items;

export const seenStore: SeenStore = createSeenStore(
  typeof localStorage === 'undefined' ? { getItem: () => null, setItem: () => undefined } : localStorage,
);
