import { describe, expect, it } from 'vitest';
import { createIdentityStore } from './identity-store';
import { createBackup, restoreBackup } from './key-backup-actions';
import { BackupErrorCode, parseBackup } from './key-backup';
import { memoryKeyValue } from './test-support/memory-key-value';

const PASSPHRASE = 'seven lanterns over the quarry';

describe('backing up and restoring the stored key', () => {
  it('downloads an encrypted file, marks the key backed up, and restores it in a fresh browser', async () => {
    const laptop = createIdentityStore(memoryKeyValue());
    const { identity } = await laptop.ensure();
    const at = new Date('2025-06-01T12:00:00Z');
    const backup = await createBackup(PASSPHRASE, laptop, () => at);

    expect(backup.fileName).toBe(`switchboard-key-${identity.did.slice(-8)}-2025-06-01.json`);
    expect(parseBackup(backup.text).did).toBe(identity.did);
    expect(backup.text).not.toContain(Buffer.from(identity.secretKey).toString('base64url'));
    expect((await laptop.load())?.backedUpAt).toBe(at.getTime());

    const fresh = createIdentityStore(memoryKeyValue(), () => 98);
    const summary = await restoreBackup(backup.text, PASSPHRASE, fresh, () => 99);
    expect(summary).toEqual({ did: identity.did, createdAt: 98, backedUpAt: 99 });
    expect((await fresh.load())?.secretKey).toEqual(identity.secretKey);
  });

  it('leaves the browser untouched when the passphrase is wrong', async () => {
    const laptop = createIdentityStore(memoryKeyValue());
    await laptop.ensure();
    const backup = await createBackup(PASSPHRASE, laptop);
    const other = createIdentityStore(memoryKeyValue());
    const { identity: mine } = await other.ensure();
    await expect(restoreBackup(backup.text, 'seven lanterns over the quarry!', other)).rejects.toMatchObject({ code: BackupErrorCode.decryptFailed });
    expect((await other.load())?.did).toBe(mine.did);
  });

  it('says so when there is no key to back up', async () => {
    await expect(createBackup(PASSPHRASE, createIdentityStore(memoryKeyValue()))).rejects.toMatchObject({ code: 'NO_KEY' });
  });
});
