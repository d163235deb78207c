import { describe, expect, it } from 'vitest';
import { fromHex } from '@shared/crypto/bytes';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed, sign } from '@shared/crypto/ed25519';
import { createIdentityStore, parseStoredIdentity, summarize } from './identity-store';
import { decryptBackup, PBKDF2_ITERATIONS } from './key-backup';
import { memoryKeyValue } from './test-support/memory-key-value';
import { importSigningKey, signWithKey } from './webcrypto-ed25519';

const SEED = '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb';
const seeded = () => keyPairFromSeed(fromHex(SEED));
const seededDid = encodeDidKey(seeded().publicKey);
const PASSPHRASE = 'seven lanterns over the quarry';
const probe = new TextEncoder().encode('probe');

describe('identity store', () => {
  it('creates one key with its backup, then keeps returning it', async () => {
    const store = createIdentityStore(memoryKeyValue(), () => 1_000);
    expect(await store.load()).toBeNull();
    const first = await store.create(PASSPHRASE);
    expect(first.created).toBe(true);
    expect(first.identity.did).toMatch(/^did:key:z6Mk/);
    expect(summarize(first.identity)).toEqual({ did: first.identity.did, createdAt: 1_000, backedUpAt: 1_000 });
    // The backup made at creation holds the very key that signs in the store.
    const restored = await decryptBackup(JSON.stringify(first.backup), PASSPHRASE);
    expect(restored.did).toBe(first.identity.did);
    expect(await signWithKey(first.identity.privateKey, probe)).toEqual(sign(probe, restored.secretKey));
    const second = await store.create('another passphrase entirely');
    expect(second.created).toBe(false);
    expect(second.backup).toBeUndefined();
    expect(second.identity.did).toBe(first.identity.did);
  });

  it('keeps the key as a non-extractable CryptoKey, in memory and in storage', async () => {
    const kv = memoryKeyValue();
    const { identity } = await createIdentityStore(kv).create(PASSPHRASE);
    const stored = kv.map.get('operator') as Record<string, unknown>;
    expect(Object.keys(stored).sort()).toEqual(['backedUpAt', 'createdAt', 'did', 'privateKey']);
    for (const key of [identity.privateKey, stored.privateKey as CryptoKey]) {
      expect(key).toBeInstanceOf(CryptoKey);
      expect(key.extractable).toBe(false);
      expect(key.usages).toEqual(['sign']);
      for (const format of ['pkcs8', 'jwk', 'raw'] as const)
        await expect(crypto.subtle.exportKey(format, key)).rejects.toThrow();
    }
  });

  it('makes no key when the passphrase is refused', async () => {
    const store = createIdentityStore(memoryKeyValue());
    await expect(store.create('short')).rejects.toMatchObject({ code: 'BACKUP_PASSPHRASE_TOO_SHORT' });
    expect(await store.load()).toBeNull();
  });

  it('keeps a single key when two callers race to create one, and only the winner gets a backup', async () => {
    const store = createIdentityStore(memoryKeyValue());
    const [a, b] = await Promise.all([store.create(PASSPHRASE), store.create(PASSPHRASE)]);
    expect(a.identity.did).toBe(b.identity.did);
    expect([a.created, b.created].filter(Boolean)).toHaveLength(1);
    const winner = a.created ? a : b;
    const loser = a.created ? b : a;
    expect(winner.backup?.did).toBe(winner.identity.did);
    expect(loser.backup).toBeUndefined();
  });

  it('replaces the key with a restored one, imported non-extractable and marked as backed up', async () => {
    const store = createIdentityStore(memoryKeyValue(), () => 42);
    await store.create(PASSPHRASE);
    const restored = await store.replace({ did: seededDid, secretKey: seeded().secretKey }, 40);
    expect(summarize(restored)).toEqual({ did: seededDid, createdAt: 42, backedUpAt: 40 });
    const loaded = (await store.load())!;
    expect(loaded.privateKey.extractable).toBe(false);
    expect(await signWithKey(loaded.privateKey, probe)).toEqual(sign(probe, seeded().secretKey));
    await expect(store.replace({ did: seededDid, secretKey: new Uint8Array(32) }, 1)).rejects.toThrow(RangeError);
  });

  it('never lets the key into the summary', async () => {
    const { identity } = await createIdentityStore(memoryKeyValue()).create(PASSPHRASE);
    expect(Object.keys(summarize(identity)).sort()).toEqual(['backedUpAt', 'createdAt', 'did']);
  });

  it('replaces a key with a new one and its backup only when asked to, and only that key', async () => {
    const kv = memoryKeyValue();
    kv.map.set('operator', { did: seededDid, secretKey: seeded().secretKey, createdAt: 1 });
    const store = createIdentityStore(kv, () => 3);
    const old = (await store.load())!;
    expect(old.backedUpAt).toBeUndefined();
    const other = await store.create(PASSPHRASE, {
      replacing: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
    });
    expect(other).toMatchObject({ created: false, identity: { did: seededDid } });
    const fresh = await store.create(PASSPHRASE, { replacing: seededDid });
    expect(fresh.created).toBe(true);
    expect(fresh.identity.did).not.toBe(seededDid);
    expect(summarize(fresh.identity)).toEqual({ did: fresh.identity.did, createdAt: 3, backedUpAt: 3 });
    expect((await store.load())?.did).toBe(fresh.identity.did);
  });

  it('clears', async () => {
    const store = createIdentityStore(memoryKeyValue());
    await store.create(PASSPHRASE);
    await store.clear();
    expect(await store.load()).toBeNull();
  });

  it('converts a record holding raw key bytes into a CryptoKey and deletes the bytes', async () => {
    const kv = memoryKeyValue();
    kv.map.set('operator', { did: seededDid, secretKey: seeded().secretKey, createdAt: 1 });
    const store = createIdentityStore(kv, () => 77);
    const loaded = (await store.load())!;
    expect(summarize(loaded)).toEqual({ did: seededDid, createdAt: 1, migratedAt: 77 });
    expect(loaded.privateKey.extractable).toBe(false);
    expect(await signWithKey(loaded.privateKey, probe)).toEqual(sign(probe, seeded().secretKey));
    const stored = kv.map.get('operator') as Record<string, unknown>;
    expect(Object.keys(stored).sort()).toEqual(['createdAt', 'did', 'migratedAt', 'privateKey']);
    expect(Object.values(stored).some((value) => value instanceof Uint8Array)).toBe(false);
    // A second load reads the converted record as it is.
    expect(summarize((await store.load())!)).toEqual({ did: seededDid, createdAt: 1, migratedAt: 77 });
  });

  it('keeps the backup time of a converted record', async () => {
    const kv = memoryKeyValue();
    kv.map.set('operator', { did: seededDid, secretKey: seeded().secretKey, createdAt: 1, backedUpAt: 5 });
    const loaded = (await createIdentityStore(kv, () => 9).load())!;
    expect(summarize(loaded)).toEqual({ did: seededDid, createdAt: 1, backedUpAt: 5, migratedAt: 9 });
  });

  it('refuses a damaged record rather than overwriting it', async () => {
    const kv = memoryKeyValue();
    kv.map.set('operator', { did: seededDid, secretKey: new Uint8Array(32), createdAt: 1 });
    const store = createIdentityStore(kv);
    await expect(store.load()).rejects.toMatchObject({ code: 'IDENTITY_DAMAGED' });
    await expect(store.create(PASSPHRASE)).rejects.toMatchObject({ code: 'IDENTITY_DAMAGED' });
    expect((kv.map.get('operator') as { did: string }).did).toBe(seededDid);
  });

  it('refuses a CryptoKey that does not sign for the stored did', async () => {
    const other = keyPairFromSeed(new Uint8Array(32).fill(3));
    const kv = memoryKeyValue();
    kv.map.set('operator', { did: seededDid, privateKey: await importSigningKey(other.secretKey), createdAt: 1 });
    await expect(createIdentityStore(kv).load()).rejects.toMatchObject({ code: 'IDENTITY_DAMAGED' });
  });

  it('refuses an extractable CryptoKey', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const did = encodeDidKey(new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey)));
    await expect(parseStoredIdentity({ did, privateKey: pair.privateKey, createdAt: 1 })).rejects.toMatchObject({
      code: 'IDENTITY_DAMAGED',
    });
  });

  it.each([
    ['a string', 'x'],
    ['a did:web', { did: 'did:web:x', secretKey: seeded().secretKey, createdAt: 1 }],
    ['a short key', { did: seededDid, secretKey: new Uint8Array(31), createdAt: 1 }],
    ['no createdAt', { did: seededDid, secretKey: seeded().secretKey }],
    ['a string backedUpAt', { did: seededDid, secretKey: seeded().secretKey, createdAt: 1, backedUpAt: 'yes' }],
    ['raw bytes (the old form)', { did: seededDid, secretKey: seeded().secretKey, createdAt: 1 }],
    ['bytes where the key belongs', { did: seededDid, privateKey: seeded().secretKey, createdAt: 1 }],
  ])('parseStoredIdentity refuses %s', async (_label, value) => {
    await expect(parseStoredIdentity(value)).rejects.toThrow(/damaged/);
  });

  it('uses the minimum PBKDF2 work factor unless told otherwise', async () => {
    const { backup } = await createIdentityStore(memoryKeyValue()).create(PASSPHRASE);
    expect(backup?.kdf.iterations).toBe(PBKDF2_ITERATIONS);
  });
});
