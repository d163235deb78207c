// The two things a person does with a backup: get one (only when the key is created, the one
// moment its bytes exist), and bring a key back from one.
import type { DidKey } from '@shared/crypto/did-key';
import { backupFileName } from './did-display';
import {
  identityStore,
  summarize,
  type CreateOptions,
  type IdentityStore,
  type IdentitySummary,
} from './identity-store';
import { decryptBackup, serializeBackup } from './key-backup';

export interface BackupDownload {
  readonly fileName: string;
  readonly text: string;
}

export interface KeyCreation {
  readonly identity: IdentitySummary;
  /** False when this browser already held a key (made here, or by another tab just now). */
  readonly created: boolean;
  /** The new key's encrypted backup file; only when created. */
  readonly backup?: BackupDownload;
}

/**
 * Creates this browser's key with its encrypted backup, or returns the key it already holds
 * (unless `options.replacing` names it: then a new key with a backup takes its place).
 */
export async function createKeyWithBackup(
  passphrase: string,
  options: CreateOptions = {},
  store: IdentityStore = identityStore,
  now: () => Date = () => new Date(),
): Promise<KeyCreation> {
  const { identity, created, backup } = await store.create(passphrase, options);
  return {
    identity: summarize(identity),
    created,
    ...(backup ? { backup: { fileName: backupFileName(identity.did, now()), text: serializeBackup(backup) } } : {}),
  };
}

/** Decrypts a backup and stores its key, as a non-extractable CryptoKey, as this browser's identity. */
export async function restoreBackup(
  text: string,
  passphrase: string,
  store: IdentityStore = identityStore,
  now: () => number = Date.now,
): Promise<IdentitySummary> {
  const key = await decryptBackup(text, passphrase);
  try {
    return summarize(await store.replace({ did: key.did as DidKey, secretKey: key.secretKey }, now()));
  } finally {
    key.secretKey.fill(0);
  }
}
