import { describe, expect, it } from 'vitest';
import { sign } from '@shared/crypto/ed25519';
import { createIdentityStore } from './identity-store';
import { createKeyWithBackup, restoreBackup } from './key-backup-actions';
import { BackupErrorCode, decryptBackup, parseBackup } from './key-backup';
import { memoryKeyValue } from './test-support/memory-key-value';
import { signWithKey } from './webcrypto-ed25519';

const PASSPHRASE = 'seven lanterns over the quarry';
const probe = new TextEncoder().encode('probe');

describe('creating a key with its backup, and restoring it', () => {
  it('creates the key with an encrypted file and restores it in a fresh browser as a non-extractable key', async () => {
    const laptop = createIdentityStore(memoryKeyValue(), () => 5);
    const at = new Date('2025-06-01T12:00:00Z');
    const made = await createKeyWithBackup(PASSPHRASE, {}, laptop, () => at);
    expect(made.created).toBe(true);
    const did = made.identity.did;
    expect(made.backup?.fileName).toBe(`switchboard-key-${did.slice(-8)}-2025-06-01.json`);
    expect(parseBackup(made.backup!.text).did).toBe(did);
    expect(made.identity).toEqual({ did, createdAt: 5, backedUpAt: 5 });

    const { secretKey } = await decryptBackup(made.backup!.text, PASSPHRASE);
    const fresh = createIdentityStore(memoryKeyValue(), () => 98);
    const summary = await restoreBackup(made.backup!.text, PASSPHRASE, fresh, () => 99);
    expect(summary).toEqual({ did, createdAt: 98, backedUpAt: 99 });
    const restored = (await fresh.load())!;
    expect(restored.privateKey.extractable).toBe(false);
    expect(await signWithKey(restored.privateKey, probe)).toEqual(sign(probe, secretKey));
    expect(await signWithKey((await laptop.load())!.privateKey, probe)).toEqual(sign(probe, secretKey));
  });

  it('offers no file when the browser already holds a key', async () => {
    const laptop = createIdentityStore(memoryKeyValue());
    const first = await createKeyWithBackup(PASSPHRASE, {}, laptop);
    const again = await createKeyWithBackup(PASSPHRASE, {}, laptop);
    expect(again).toEqual({ identity: first.identity, created: false });
  });

  it('leaves the browser untouched when the passphrase is wrong', async () => {
    const made = await createKeyWithBackup(PASSPHRASE, {}, createIdentityStore(memoryKeyValue()));
    const other = createIdentityStore(memoryKeyValue());
    const mine = await createKeyWithBackup('another long passphrase', {}, other);
    await expect(restoreBackup(made.backup!.text, 'seven lanterns over the quarry!', other)).rejects.toMatchObject({
      code: BackupErrorCode.decryptFailed,
    });
    expect((await other.load())?.did).toBe(mine.identity.did);
  });
});
