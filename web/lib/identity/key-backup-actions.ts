// The two things a person does with a backup: save one, and bring a key back from one.
import type { DidKey } from '@shared/crypto/did-key';
import { CodedError } from '@shared/errors';
import { backupFileName } from './did-display';
import { identityStore, summarize, type IdentityStore, type IdentitySummary } from './identity-store';
import { decryptBackup, encryptBackup, serializeBackup } from './key-backup';

export interface BackupDownload {
  readonly fileName: string;
  readonly text: string;
}

/** Encrypts the stored key and records that a backup now exists. */
export async function createBackup(passphrase: string, store: IdentityStore = identityStore, now: () => Date = () => new Date()): Promise<BackupDownload> {
  const identity = await store.load();
  if (!identity) throw new CodedError('NO_KEY', 'This browser holds no operator key to back up.');
  const file = await encryptBackup(identity, passphrase);
  const at = now();
  await store.markBackedUp(identity.did, at.getTime());
  return { fileName: backupFileName(identity.did, at), text: serializeBackup(file) };
}

/** Decrypts a backup and stores its key as this browser's identity. */
export async function restoreBackup(text: string, passphrase: string, store: IdentityStore = identityStore, now: () => number = Date.now): Promise<IdentitySummary> {
  const key = await decryptBackup(text, passphrase);
  return summarize(await store.replace({ did: key.did as DidKey, secretKey: key.secretKey }, now()));
}
