import { describe, expect, it } from 'vitest';
import { fromHex } from '@shared/crypto/bytes';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed } from '@shared/crypto/ed25519';
import { createIdentityStore, parseStoredIdentity, summarize } from './identity-store';
import { memoryKeyValue } from './test-support/memory-key-value';

const seeded = keyPairFromSeed(fromHex('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb'));
const seededDid = encodeDidKey(seeded.publicKey);

describe('identity store', () => {
  it('creates one key, then keeps returning it', async () => {
    const store = createIdentityStore(memoryKeyValue(), () => 1_000);
    expect(await store.load()).toBeNull();
    const first = await store.ensure();
    expect(first.created).toBe(true);
    expect(first.identity.did).toMatch(/^did:key:z6Mk/);
    expect(first.identity.createdAt).toBe(1_000);
    const second = await store.ensure();
    expect(second).toEqual({ identity: first.identity, created: false });
  });

  it('keeps a single key when two callers race to create one', async () => {
    const store = createIdentityStore(memoryKeyValue());
    const [a, b] = await Promise.all([store.ensure(), store.ensure()]);
    expect(a.identity.did).toBe(b.identity.did);
    expect([a.created, b.created].filter(Boolean)).toHaveLength(1);
  });

  it('records the backup time for the matching did only', async () => {
    const kv = memoryKeyValue();
    const store = createIdentityStore(kv);
    const { identity } = await store.ensure();
    await store.markBackedUp(seededDid, 5);
    expect((await store.load())?.backedUpAt).toBeUndefined();
    await store.markBackedUp(identity.did, 7);
    expect((await store.load())?.backedUpAt).toBe(7);
  });

  it('replaces the key with a restored one, marked as backed up', async () => {
    const store = createIdentityStore(memoryKeyValue(), () => 42);
    await store.ensure();
    const restored = await store.replace({ did: seededDid, secretKey: seeded.secretKey }, 40);
    expect(summarize(restored)).toEqual({ did: seededDid, createdAt: 42, backedUpAt: 40 });
    expect((await store.load())?.secretKey).toEqual(seeded.secretKey);
    await expect(store.replace({ did: seededDid, secretKey: new Uint8Array(32) }, 1)).rejects.toThrow(RangeError);
  });

  it('never lets the secret key into the summary', async () => {
    const { identity } = await createIdentityStore(memoryKeyValue()).ensure();
    expect(Object.keys(summarize(identity)).sort()).toEqual(['createdAt', 'did']);
  });

  it('clears', async () => {
    const store = createIdentityStore(memoryKeyValue());
    await store.ensure();
    await store.clear();
    expect(await store.load()).toBeNull();
  });

  it('refuses a damaged record rather than overwriting it', async () => {
    const kv = memoryKeyValue();
    kv.map.set('operator', { did: seededDid, secretKey: new Uint8Array(32), createdAt: 1 });
    const store = createIdentityStore(kv);
    await expect(store.load()).rejects.toMatchObject({ code: 'IDENTITY_DAMAGED' });
    await expect(store.ensure()).rejects.toMatchObject({ code: 'IDENTITY_DAMAGED' });
    expect((kv.map.get('operator') as { did: string }).did).toBe(seededDid);
  });

  it.each([
    ['a string', 'x'],
    ['a did:web', { did: 'did:web:x', secretKey: seeded.secretKey, createdAt: 1 }],
    ['a short key', { did: seededDid, secretKey: new Uint8Array(31), createdAt: 1 }],
    ['no createdAt', { did: seededDid, secretKey: seeded.secretKey }],
    ['a string backedUpAt', { did: seededDid, secretKey: seeded.secretKey, createdAt: 1, backedUpAt: 'yes' }],
  ])('parseStoredIdentity refuses %s', (_label, value) => {
    expect(() => parseStoredIdentity(value)).toThrow(/damaged/);
  });
});
