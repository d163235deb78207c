// What the console already loads, read for names (decisions-web.md §29). Each reader takes one
// query's data by shape and returns name entries; the cache (name-cache.ts) matches them to query
// keys. Pure, so each is tested without a server.
import type { NameEntry } from './name-book';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The session (`/api/auth/session`, `/api/me`): the operator is "You" to themself. */
export function sessionNames(data: unknown): NameEntry[] {
  const did = str(obj(data)?.did);
  return did ? [{ id: did, name: 'You', source: 'you' }] : [];
}

/** Presence (`/api/presence`): the names operators gave themselves. */
export function presenceNames(data: unknown): NameEntry[] {
  return list(obj(data)?.operators).flatMap((o) => {
    const did = str(obj(o)?.did);
    const name = str(obj(o)?.name);
    return did && name ? [{ id: did, name, source: 'operator' as const }] : [];
  });
}

/** The Agora directory (`/agents`): each entry's manifest name, OACoP calendars included. */
export function directoryNames(data: unknown): NameEntry[] {
  return list(data).flatMap((e) => {
    const id = str(obj(e)?.agent_id);
    const name = str(obj(e)?.agent_name);
    return id && name ? [{ id, name, source: 'directory' as const }] : [];
  });
}

/** The demo's identities (`/api/demo/names`, and a guided run's answer): `{ names: { did: name } }`. */
export function demoNames(data: unknown): NameEntry[] {
  const names = obj(obj(data)?.names);
  if (!names) return [];
  return Object.entries(names).flatMap(([id, name]) =>
    typeof name === 'string' ? [{ id, name, source: 'demo' as const }] : [],
  );
}

/** A room's agents (`/api/rooms/:id/agents`, as the array the query keeps): their self-descriptions. */
export function roomAgentNames(data: unknown): NameEntry[] {
  return list(data).flatMap((a) => {
    const id = str(obj(a)?.agentId);
    const name = str(obj(a)?.description);
    return id && name ? [{ id, name, source: 'room' as const }] : [];
  });
}
