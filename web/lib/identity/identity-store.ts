// The operator's identity, one per browser profile, kept in IndexedDB. The record holds the
// private key as a non-extractable WebCrypto CryptoKey (webcrypto-ed25519.ts): it can sign, and
// no script of the origin can read its bytes. The raw key exists only while a key is created
// (to encrypt its backup) or restored, and is zeroed once imported (decisions-web.md §19).
import { createStore, del, get, set, update, type UseStore } from 'idb-keyval';
import { CodedError } from '@shared/errors';
import { decodeDidKey, encodeDidKey, isDidKey, type DidKey } from '@shared/crypto/did-key';
import { generateKeyPair, publicKeyOf, SECRET_KEY_LENGTH, verify } from '@shared/crypto/ed25519';
import { encryptBackup, type EncryptOptions, type KeyBackupFile } from './key-backup';
import { importSigningKey, signWithKey } from './webcrypto-ed25519';

export interface StoredIdentity {
  readonly did: DidKey;
  /** Ed25519, `extractable: false`, usages ['sign']. */
  readonly privateKey: CryptoKey;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** When an encrypted backup of this key was made; absent for a key that has none. */
  readonly backedUpAt?: number;
  /** Set when this record was converted from raw key bytes; the screens tell the operator. */
  readonly migratedAt?: number;
}

/** What screens may know about the stored identity: everything but the key. */
export type IdentitySummary = Omit<StoredIdentity, 'privateKey'>;

export const summarize = ({ did, createdAt, backedUpAt, migratedAt }: StoredIdentity): IdentitySummary => ({
  did,
  createdAt,
  ...(backedUpAt === undefined ? {} : { backedUpAt }),
  ...(migratedAt === undefined ? {} : { migratedAt }),
});

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

const PROBE = new TextEncoder().encode('switchboard: does this key belong to its did?');

/** A private CryptoKey cannot be asked for its public half: a signature over a probe proves the pair. */
async function keyBelongsTo(key: CryptoKey, did: DidKey): Promise<boolean> {
  try {
    return verify(await signWithKey(key, PROBE), PROBE, decodeDidKey(did));
  } catch {
    return false;
  }
}

const isSigningKey = (value: unknown): value is CryptoKey =>
  typeof CryptoKey !== 'undefined' &&
  value instanceof CryptoKey &&
  value.type === 'private' &&
  value.algorithm.name === 'Ed25519' &&
  !value.extractable &&
  value.usages.includes('sign');

/** A record from before keys were CryptoKeys: the raw 32-byte secret itself. */
interface LegacyRecord {
  readonly did: DidKey;
  readonly secretKey: Uint8Array;
  readonly createdAt: number;
  readonly backedUpAt?: number;
}

type Parsed =
  | { readonly kind: 'current'; readonly identity: StoredIdentity }
  | { readonly kind: 'legacy'; readonly record: LegacyRecord };

function parseRecord(value: unknown): Parsed | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') throw damaged();
  const { did, privateKey, secretKey, createdAt, backedUpAt, migratedAt } = value as Record<string, unknown>;
  if (!isDidKey(did) || typeof createdAt !== 'number') throw damaged();
  if (backedUpAt !== undefined && typeof backedUpAt !== 'number') throw damaged();
  if (migratedAt !== undefined && typeof migratedAt !== 'number') throw damaged();
  if (privateKey !== undefined) {
    if (!isSigningKey(privateKey) || secretKey !== undefined) throw damaged();
    return {
      kind: 'current',
      identity: {
        did,
        privateKey,
        createdAt,
        ...(backedUpAt === undefined ? {} : { backedUpAt }),
        ...(migratedAt === undefined ? {} : { migratedAt }),
      },
    };
  }
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== SECRET_KEY_LENGTH) throw damaged();
  if (encodeDidKey(publicKeyOf(secretKey)) !== did) throw damaged();
  return { kind: 'legacy', record: { did, secretKey, createdAt, ...(backedUpAt === undefined ? {} : { backedUpAt }) } };
}

/** Checks a stored record in the current form, including that its key signs for its did. */
export async function parseStoredIdentity(value: unknown): Promise<StoredIdentity | null> {
  const parsed = parseRecord(value);
  if (parsed === null) return null;
  if (parsed.kind === 'legacy') throw damaged();
  if (!(await keyBelongsTo(parsed.identity.privateKey, parsed.identity.did))) throw damaged();
  return parsed.identity;
}

export interface CreatedIdentity {
  readonly identity: StoredIdentity;
  /** False when another tab created a key first: that one is kept, and no backup is made here. */
  readonly created: boolean;
  /** The new key's encrypted backup, made before the raw key was dropped; only when created. */
  readonly backup?: KeyBackupFile;
}

export interface CreateOptions extends EncryptOptions {
  /**
   * Makes a new key even though this one is stored (a key with no backup, replaced by one with
   * a backup); only if it is still the stored one when the new key lands.
   */
  readonly replacing?: DidKey;
}

export interface IdentityStore {
  /** The stored identity; a record holding raw key bytes is converted (and the bytes deleted) first. */
  load(): Promise<StoredIdentity | null>;
  /**
   * The stored identity, or a new key created now with its encrypted backup: the only moment
   * the key's bytes exist, so the only moment a backup can be made.
   */
  create(passphrase: string, options?: CreateOptions): Promise<CreatedIdentity>;
  /** Stores a restored key (raw bytes from a backup) in place of whatever was there. */
  replace(key: { readonly did: DidKey; readonly secretKey: Uint8Array }, backedUpAt: number): Promise<StoredIdentity>;
  clear(): Promise<void>;
}

export function createIdentityStore(kv: KeyValueStore, now: () => number = Date.now): IdentityStore {
  async function migrate(legacy: LegacyRecord): Promise<void> {
    const privateKey = await importSigningKey(legacy.secretKey);
    const converted: StoredIdentity = { ...legacy, privateKey, migratedAt: now() };
    delete (converted as { secretKey?: unknown }).secretKey;
    // Only the record read is converted: another tab may have converted or replaced it meanwhile.
    await kv.update(RECORD_KEY, (old) => {
      const current = old as Partial<LegacyRecord> | undefined;
      return current && current.did === legacy.did && current.secretKey instanceof Uint8Array ? converted : old;
    });
    legacy.secretKey.fill(0);
  }

  async function load(): Promise<StoredIdentity | null> {
    let parsed = parseRecord(await kv.get(RECORD_KEY));
    if (parsed?.kind === 'legacy') {
      await migrate(parsed.record);
      parsed = parseRecord(await kv.get(RECORD_KEY));
      if (parsed?.kind === 'legacy') throw damaged();
    }
    if (parsed === null) return null;
    if (!(await keyBelongsTo(parsed.identity.privateKey, parsed.identity.did))) throw damaged();
    return parsed.identity;
  }

  return {
    load,
    async create(passphrase, options) {
      const replacing = options?.replacing;
      const existing = await load();
      if (existing && existing.did !== replacing) return { identity: existing, created: false };
      const keys = generateKeyPair();
      const did = encodeDidKey(keys.publicKey);
      try {
        const backup = await encryptBackup({ did, secretKey: keys.secretKey }, passphrase, {
          ...(options?.randomBytes ? { randomBytes: options.randomBytes } : {}),
          ...(options?.iterations === undefined ? {} : { iterations: options.iterations }),
        });
        const privateKey = await importSigningKey(keys.secretKey);
        const at = now();
        const fresh: StoredIdentity = { did, privateKey, createdAt: at, backedUpAt: at };
        // Another tab may have created (or replaced) one meanwhile: keep whichever landed first.
        await kv.update(RECORD_KEY, (old) => {
          if (old === undefined || old === null) return fresh;
          return replacing !== undefined && (old as { did?: unknown }).did === replacing ? fresh : old;
        });
        const identity = await load();
        if (!identity) throw damaged();
        return identity.did === did ? { identity, created: true, backup } : { identity, created: false };
      } finally {
        keys.secretKey.fill(0);
      }
    },
    async replace(key, backedUpAt) {
      if (encodeDidKey(publicKeyOf(key.secretKey)) !== key.did)
        throw new RangeError('secretKey does not belong to did');
      const identity: StoredIdentity = {
        did: key.did,
        privateKey: await importSigningKey(key.secretKey),
        createdAt: now(),
        backedUpAt,
      };
      await kv.set(RECORD_KEY, identity);
      return identity;
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
