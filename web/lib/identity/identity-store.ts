// The operator's identity, one per browser profile, kept in IndexedDB. The record holds the
// Ed25519 secret key; it is read only to sign or to build an encrypted backup, and never
// logged, sent, or put into React state (the UI sees an IdentitySummary).
import { createStore, del, get, set, update, type UseStore } from 'idb-keyval';
import { CodedError } from '@shared/errors';
import { encodeDidKey, isDidKey, type DidKey } from '@shared/crypto/did-key';
import { generateKeyPair, publicKeyOf, SECRET_KEY_LENGTH } from '@shared/crypto/ed25519';

export interface StoredIdentity {
  readonly did: DidKey;
  readonly secretKey: Uint8Array;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly backedUpAt?: number;
}

/** What screens may know about the stored identity: everything but the secret. */
export type IdentitySummary = Omit<StoredIdentity, 'secretKey'>;

export const summarize = ({ did, createdAt, backedUpAt }: StoredIdentity): IdentitySummary =>
  backedUpAt === undefined ? { did, createdAt } : { did, createdAt, backedUpAt };

/** The slice of a key-value store this module needs; IndexedDB in the browser, a Map in tests. */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  /** Reads and writes in one transaction, so two tabs cannot both create a key. */
  update(key: string, updater: (old: unknown) => unknown): Promise<void>;
  del(key: string): Promise<void>;
}

const RECORD_KEY = 'operator';

const damaged = () =>
  new CodedError('IDENTITY_DAMAGED', 'The key stored in this browser is damaged. Restore it from your backup.');

/** Checks a stored record, including that the secret key really derives its did. */
export function parseStoredIdentity(value: unknown): StoredIdentity | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') throw damaged();
  const record = value as Record<string, unknown>;
  const { did, secretKey, createdAt, backedUpAt } = record;
  if (!isDidKey(did) || !(secretKey instanceof Uint8Array) || secretKey.length !== SECRET_KEY_LENGTH) throw damaged();
  if (typeof createdAt !== 'number' || (backedUpAt !== undefined && typeof backedUpAt !== 'number')) throw damaged();
  if (encodeDidKey(publicKeyOf(secretKey)) !== did) throw damaged();
  return backedUpAt === undefined ? { did, secretKey, createdAt } : { did, secretKey, createdAt, backedUpAt };
}

export interface IdentityStore {
  load(): Promise<StoredIdentity | null>;
  /** The stored identity, or a new key created and stored now. */
  ensure(): Promise<{ readonly identity: StoredIdentity; readonly created: boolean }>;
  /** Stores a restored key in place of whatever was there. */
  replace(key: { readonly did: DidKey; readonly secretKey: Uint8Array }, backedUpAt: number): Promise<StoredIdentity>;
  markBackedUp(did: string, at: number): Promise<void>;
  clear(): Promise<void>;
}

export function createIdentityStore(kv: KeyValueStore, now: () => number = Date.now): IdentityStore {
  const load = async () => parseStoredIdentity(await kv.get(RECORD_KEY));
  return {
    load,
    async ensure() {
      const existing = await load();
      if (existing) return { identity: existing, created: false };
      const keys = generateKeyPair();
      const fresh: StoredIdentity = { did: encodeDidKey(keys.publicKey), secretKey: keys.secretKey, createdAt: now() };
      // Another tab may have created one meanwhile: keep whichever landed first.
      await kv.update(RECORD_KEY, (old) => old ?? fresh);
      const identity = await load();
      if (!identity) throw damaged();
      return { identity, created: identity.did === fresh.did };
    },
    async replace(key, backedUpAt) {
      if (encodeDidKey(publicKeyOf(key.secretKey)) !== key.did) throw new RangeError('secretKey does not belong to did');
      const identity: StoredIdentity = { did: key.did, secretKey: new Uint8Array(key.secretKey), createdAt: now(), backedUpAt };
      await kv.set(RECORD_KEY, identity);
      return identity;
    },
    async markBackedUp(did, at) {
      await kv.update(RECORD_KEY, (old) => {
        const record = old as Partial<StoredIdentity> | undefined;
        return record && record.did === did ? { ...record, backedUpAt: at } : old;
      });
    },
    clear: () => kv.del(RECORD_KEY),
  };
}

function indexedDbStore(): KeyValueStore {
  let store: UseStore | undefined;
  // Opened on first use, so importing this module never touches IndexedDB.
  const db = () => (store ??= createStore('switchboard-identity', 'identity'));
  return {
    get: (key) => get(key, db()),
    set: (key, value) => set(key, value, db()),
    update: (key, updater) => update(key, updater, db()),
    del: (key) => del(key, db()),
  };
}

export const identityStore: IdentityStore = createIdentityStore(indexedDbStore());
