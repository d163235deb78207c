// Passphrase-encrypted backup of the operator key: the only form in which the private key ever
// leaves the browser. PBKDF2-SHA-256 (OWASP 2023: ≥ 600,000 iterations) stretches the passphrase
// into an AES-256-GCM key; the did is the GCM additional data, so a file whose did was swapped
// fails to decrypt, and the decrypted key must derive that very did.
import { z } from 'zod';
import { CodedError } from '@shared/errors';
import { decodeBase64url, encodeBase64url } from '@shared/crypto/base64url';
import { utf8 } from '@shared/crypto/bytes';
import { encodeDidKey, isDidKey, type DidKey } from '@shared/crypto/did-key';
import { publicKeyOf, SECRET_KEY_LENGTH } from '@shared/crypto/ed25519';

export const BACKUP_FORMAT = 'switchboard-key-backup';
export const BACKUP_VERSION = 1;
export const PBKDF2_ITERATIONS = 600_000;
/** A file asking for more work than this is refused rather than freezing the tab. */
export const MAX_PBKDF2_ITERATIONS = 10_000_000;
export const MIN_PASSPHRASE_LENGTH = 10;
/** A backup is a few hundred bytes; anything far larger is not one. */
export const MAX_BACKUP_FILE_BYTES = 64 * 1024;
const SALT_LENGTH = 16;
const IV_LENGTH = 12; // NIST SP 800-38D §8.2: 96-bit IVs
const GCM_TAG_LENGTH = 16;

export const BackupErrorCode = {
  notJson: 'BACKUP_NOT_JSON',
  notABackup: 'BACKUP_NOT_A_BACKUP',
  unsupportedVersion: 'BACKUP_UNSUPPORTED_VERSION',
  malformed: 'BACKUP_MALFORMED',
  decryptFailed: 'BACKUP_DECRYPT_FAILED',
  keyMismatch: 'BACKUP_KEY_MISMATCH',
  weakPassphrase: 'BACKUP_PASSPHRASE_TOO_SHORT',
} as const;

const Base64url = z.string().regex(/^[A-Za-z0-9_-]*$/, 'not base64url');

export const KeyBackupFile = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  did: z.string().refine(isDidKey, 'not an Ed25519 did:key'),
  kdf: z.object({
    name: z.literal('PBKDF2'),
    hash: z.literal('SHA-256'),
    iterations: z.number().int().min(PBKDF2_ITERATIONS).max(MAX_PBKDF2_ITERATIONS),
    salt: Base64url,
  }),
  cipher: z.object({ name: z.literal('AES-GCM'), iv: Base64url }),
  ciphertext: Base64url,
});
export type KeyBackupFile = z.infer<typeof KeyBackupFile>;

export interface BackupKey {
  readonly did: DidKey;
  readonly secretKey: Uint8Array;
}

export interface EncryptOptions {
  /** Source of the salt and IV; tests inject a seeded one. */
  readonly randomBytes?: (length: number) => Uint8Array;
  readonly iterations?: number;
}

const defaultRandomBytes = (length: number): Uint8Array => crypto.getRandomValues(new Uint8Array(length));

// WebCrypto wants ArrayBuffer-backed views; copying also keeps the caller's bytes untouched.
const buffer = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

/** Unicode-normalized, so a passphrase typed on another keyboard or OS still matches. */
const passphraseBytes = (passphrase: string): Uint8Array => utf8(passphrase.normalize('NFC'));

async function deriveKey(
  passphrase: string,
  salt: Uint8Array,
  iterations: number,
  usage: KeyUsage,
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', buffer(passphraseBytes(passphrase)), 'PBKDF2', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: buffer(salt), iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    [usage],
  );
}

export async function encryptBackup(
  key: BackupKey,
  passphrase: string,
  options: EncryptOptions = {},
): Promise<KeyBackupFile> {
  if (typeof passphrase !== 'string') throw new TypeError('passphrase must be a string');
  if ([...passphrase].length < MIN_PASSPHRASE_LENGTH) {
    throw new CodedError(
      BackupErrorCode.weakPassphrase,
      `Use a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters.`,
    );
  }
  if (!(key.secretKey instanceof Uint8Array) || key.secretKey.length !== SECRET_KEY_LENGTH) {
    throw new RangeError(`secretKey must be ${SECRET_KEY_LENGTH} bytes`);
  }
  if (encodeDidKey(publicKeyOf(key.secretKey)) !== key.did) throw new RangeError('secretKey does not belong to did');
  const iterations = options.iterations ?? PBKDF2_ITERATIONS;
  if (!Number.isInteger(iterations) || iterations < PBKDF2_ITERATIONS || iterations > MAX_PBKDF2_ITERATIONS) {
    throw new RangeError(`iterations must be an integer in [${PBKDF2_ITERATIONS}, ${MAX_PBKDF2_ITERATIONS}]`);
  }
  const random = options.randomBytes ?? defaultRandomBytes;
  const salt = random(SALT_LENGTH);
  const iv = random(IV_LENGTH);
  const aesKey = await deriveKey(passphrase, salt, iterations, 'encrypt');
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: buffer(iv), additionalData: buffer(utf8(key.did)) },
      aesKey,
      buffer(key.secretKey),
    ),
  );
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    did: key.did,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt: encodeBase64url(salt) },
    cipher: { name: 'AES-GCM', iv: encodeBase64url(iv) },
    ciphertext: encodeBase64url(ciphertext),
  };
}

/** The file's text, as downloaded: pretty enough to read, stable member order. */
export const serializeBackup = (file: KeyBackupFile): string => JSON.stringify(file, null, 2) + '\n';

function decodeField(text: string, field: string, length: number): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64url(text);
  } catch {
    throw new CodedError(BackupErrorCode.malformed, `This key backup is damaged: ${field} is not base64url.`);
  }
  if (bytes.length !== length) {
    throw new CodedError(
      BackupErrorCode.malformed,
      `This key backup is damaged: ${field} must be ${length} bytes, not ${bytes.length}.`,
    );
  }
  return bytes;
}

/** Parses and checks a backup file's text, saying in words what is wrong with it. */
export function parseBackup(text: string): KeyBackupFile {
  if (typeof text !== 'string') throw new TypeError('backup text must be a string');
  if (text.length > MAX_BACKUP_FILE_BYTES)
    throw new CodedError(BackupErrorCode.notABackup, 'This file is too large to be a Switchboard key backup.');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CodedError(BackupErrorCode.notJson, 'This file is not a Switchboard key backup (it is not JSON).');
  }
  if (json === null || typeof json !== 'object' || (json as { format?: unknown }).format !== BACKUP_FORMAT) {
    throw new CodedError(BackupErrorCode.notABackup, 'This file is not a Switchboard key backup.');
  }
  const version = (json as { version?: unknown }).version;
  if (version !== BACKUP_VERSION) {
    throw new CodedError(
      BackupErrorCode.unsupportedVersion,
      typeof version === 'number' && version > BACKUP_VERSION
        ? `This backup was made by a newer Switchboard (format version ${version}); update this console to restore it.`
        : 'This key backup has no format version this console understands.',
    );
  }
  const parsed = KeyBackupFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the file';
    throw new CodedError(BackupErrorCode.malformed, `This key backup is damaged: ${where} is not valid.`);
  }
  decodeField(parsed.data.kdf.salt, 'kdf.salt', SALT_LENGTH);
  decodeField(parsed.data.cipher.iv, 'cipher.iv', IV_LENGTH);
  decodeField(parsed.data.ciphertext, 'ciphertext', SECRET_KEY_LENGTH + GCM_TAG_LENGTH);
  return parsed.data;
}

/** Decrypts a backup (file text or parsed file) and proves the key inside derives the stated did. */
export async function decryptBackup(input: string | KeyBackupFile, passphrase: string): Promise<BackupKey> {
  if (typeof passphrase !== 'string') throw new TypeError('passphrase must be a string');
  const file = typeof input === 'string' ? parseBackup(input) : parseBackup(JSON.stringify(input));
  const salt = decodeField(file.kdf.salt, 'kdf.salt', SALT_LENGTH);
  const iv = decodeField(file.cipher.iv, 'cipher.iv', IV_LENGTH);
  const ciphertext = decodeField(file.ciphertext, 'ciphertext', SECRET_KEY_LENGTH + GCM_TAG_LENGTH);
  const aesKey = await deriveKey(passphrase, salt, file.kdf.iterations, 'decrypt');
  let secretKey: Uint8Array;
  try {
    secretKey = new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: buffer(iv), additionalData: buffer(utf8(file.did)) },
        aesKey,
        buffer(ciphertext),
      ),
    );
  } catch {
    // GCM cannot tell a wrong passphrase from a changed file: both fail the tag check.
    throw new CodedError(
      BackupErrorCode.decryptFailed,
      'The passphrase is wrong, or the backup file was changed. Check the passphrase and try again.',
    );
  }
  const did = file.did as DidKey;
  if (secretKey.length !== SECRET_KEY_LENGTH || encodeDidKey(publicKeyOf(secretKey)) !== did) {
    throw new CodedError(
      BackupErrorCode.keyMismatch,
      `The key inside this backup does not belong to ${did}; the file is not genuine.`,
    );
  }
  return { did, secretKey };
}
