import type { KeyValueStore } from '../identity-store';

/** A Map standing in for IndexedDB, with structured clone so nothing is shared by reference. */
export function memoryKeyValue(): KeyValueStore & { readonly map: Map<string, unknown> } {
  const map = new Map<string, unknown>();
  return {
    map,
    get: async (key) => structuredClone(map.get(key)),
    set: async (key, value) => void map.set(key, structuredClone(value)),
    update: async (key, updater) => void map.set(key, structuredClone(updater(structuredClone(map.get(key))))),
    del: async (key) => void map.delete(key),
  };
}
