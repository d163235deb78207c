import { createDecipheriv, pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CodedError } from '@shared/errors';
import { decodeBase64url, encodeBase64url } from '@shared/crypto/base64url';
import { fromHex } from '@shared/crypto/bytes';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed } from '@shared/crypto/ed25519';
import {
  BackupErrorCode,
  decryptBackup,
  encryptBackup,
  parseBackup,
  PBKDF2_ITERATIONS,
  serializeBackup,
  type KeyBackupFile,
} from './key-backup';

// RFC 8032 §7.1 TEST 1 and TEST 2 seeds: fixed keys, so every run is the same.
const alice = keyPairFromSeed(fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'));
const bob = keyPairFromSeed(fromHex('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb'));
const aliceKey = { did: encodeDidKey(alice.publicKey), secretKey: alice.secretKey };
const bobDid = encodeDidKey(bob.publicKey);
const PASSPHRASE = 'correct horse battery staple';

/** Counting bytes instead of random ones: reproducible salt and IV. */
const counting = () => {
  let next = 0;
  return (length: number) => Uint8Array.from({ length }, () => next++ & 0xff);
};

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CodedError) return error.code;
    throw error;
  }
  throw new Error('expected a coded error');
}

const syncCodeOf = (fn: () => unknown) => codeOf(Promise.resolve().then(fn));

const flipLast = (b64: string): string => {
  const bytes = decodeBase64url(b64);
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0x01;
  return encodeBase64url(bytes);
};

describe('key backup file', () => {
  // One encryption shared by the cases below: each PBKDF2 at 600,000 rounds costs a few hundred ms.
  const filePromise = encryptBackup(aliceKey, PASSPHRASE, { randomBytes: counting() });

  it('has exactly the documented shape', async () => {
    const file = await filePromise;
    expect(file).toEqual({
      format: 'switchboard-key-backup',
      version: 1,
      did: aliceKey.did,
      kdf: {
        name: 'PBKDF2',
        hash: 'SHA-256',
        iterations: 600_000,
        salt: encodeBase64url(Uint8Array.from({ length: 16 }, (_, i) => i)),
      },
      cipher: { name: 'AES-GCM', iv: encodeBase64url(Uint8Array.from({ length: 12 }, (_, i) => 16 + i)) },
      ciphertext: expect.stringMatching(/^[A-Za-z0-9_-]{64}$/) as unknown,
    });
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(JSON.parse(serializeBackup(file))).toEqual(file);
  });

  it('decrypts with node:crypto too: PBKDF2-SHA-256 → AES-256-GCM, the did as additional data', async () => {
    const file = await filePromise;
    const key = pbkdf2Sync(PASSPHRASE, decodeBase64url(file.kdf.salt), file.kdf.iterations, 32, 'sha256');
    const sealed = decodeBase64url(file.ciphertext);
    const decipher = createDecipheriv('aes-256-gcm', key, decodeBase64url(file.cipher.iv));
    decipher.setAAD(new TextEncoder().encode(file.did));
    decipher.setAuthTag(sealed.subarray(32));
    const plain = Buffer.concat([decipher.update(sealed.subarray(0, 32)), decipher.final()]);
    expect(new Uint8Array(plain)).toEqual(alice.secretKey);
  });

  it('round-trips from the file text', async () => {
    const restored = await decryptBackup(serializeBackup(await filePromise), PASSPHRASE);
    expect(restored.did).toBe(aliceKey.did);
    expect(restored.secretKey).toEqual(alice.secretKey);
  });

  it('matches the passphrase after Unicode normalization (NFC)', async () => {
    const file = await encryptBackup(aliceKey, 'cafe\u0301 au lait, s’il vous plaît', { randomBytes: counting() });
    const restored = await decryptBackup(file, 'caf\u00e9 au lait, s’il vous plaît');
    expect(restored.did).toBe(aliceKey.did);
  });

  it('refuses a wrong passphrase, in words', async () => {
    const attempt = decryptBackup(await filePromise, 'correct horse battery stapler');
    await expect(attempt).rejects.toThrow(/passphrase is wrong/);
    await expect(attempt).rejects.toMatchObject({ code: BackupErrorCode.decryptFailed });
  });

  it('refuses a tampered ciphertext', async () => {
    const file = await filePromise;
    expect(await codeOf(decryptBackup({ ...file, ciphertext: flipLast(file.ciphertext) }, PASSPHRASE))).toBe(
      BackupErrorCode.decryptFailed,
    );
  });

  it('refuses a tampered IV or salt', async () => {
    const file = await filePromise;
    expect(
      await codeOf(decryptBackup({ ...file, cipher: { ...file.cipher, iv: flipLast(file.cipher.iv) } }, PASSPHRASE)),
    ).toBe(BackupErrorCode.decryptFailed);
    expect(
      await codeOf(decryptBackup({ ...file, kdf: { ...file.kdf, salt: flipLast(file.kdf.salt) } }, PASSPHRASE)),
    ).toBe(BackupErrorCode.decryptFailed);
  });

  it('refuses a file whose did was swapped for another (the did is GCM additional data)', async () => {
    const file = await filePromise;
    expect(await codeOf(decryptBackup({ ...file, did: bobDid }, PASSPHRASE))).toBe(BackupErrorCode.decryptFailed);
  });

  it('refuses a key that does not derive the stated did, even when the encryption is genuine', async () => {
    // A forger who knows the passphrase seals Bob's key under Alice's did.
    const file = await filePromise;
    const key = pbkdf2Sync(PASSPHRASE, decodeBase64url(file.kdf.salt), file.kdf.iterations, 32, 'sha256');
    const iv = decodeBase64url(file.cipher.iv);
    const aes = await crypto.subtle.importKey('raw', new Uint8Array(key), 'AES-GCM', false, ['encrypt']);
    const forged = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv: new Uint8Array(iv), additionalData: new TextEncoder().encode(file.did) },
        aes,
        new Uint8Array(bob.secretKey),
      ),
    );
    const attempt = decryptBackup({ ...file, ciphertext: encodeBase64url(forged) }, PASSPHRASE);
    await expect(attempt).rejects.toMatchObject({ code: BackupErrorCode.keyMismatch });
  });
});

describe('parseBackup: malformed files say what is wrong', () => {
  const valid: KeyBackupFile = {
    format: 'switchboard-key-backup',
    version: 1,
    did: aliceKey.did,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000, salt: encodeBase64url(new Uint8Array(16)) },
    cipher: { name: 'AES-GCM', iv: encodeBase64url(new Uint8Array(12)) },
    ciphertext: encodeBase64url(new Uint8Array(48)),
  };
  const text = (value: unknown) => JSON.stringify(value);

  it('accepts a well-formed file and ignores members it does not know', () => {
    expect(parseBackup(text(valid))).toEqual(valid);
    expect(parseBackup(text({ ...valid, comment: 'laptop' }))).toEqual(valid);
  });

  it.each([
    ['not JSON', 'hello', BackupErrorCode.notJson],
    ['JSON but not an object', '[1,2]', BackupErrorCode.notABackup],
    ['another format', text({ ...valid, format: 'pem' }), BackupErrorCode.notABackup],
    ['a newer version', text({ ...valid, version: 2 }), BackupErrorCode.unsupportedVersion],
    ['no version', text({ ...valid, version: undefined }), BackupErrorCode.unsupportedVersion],
    ['a did:web', text({ ...valid, did: 'did:web:example.com' }), BackupErrorCode.malformed],
    ['too few iterations', text({ ...valid, kdf: { ...valid.kdf, iterations: 100_000 } }), BackupErrorCode.malformed],
    [
      'absurdly many iterations',
      text({ ...valid, kdf: { ...valid.kdf, iterations: 1e12 } }),
      BackupErrorCode.malformed,
    ],
    ['another KDF', text({ ...valid, kdf: { ...valid.kdf, name: 'scrypt' } }), BackupErrorCode.malformed],
    ['another hash', text({ ...valid, kdf: { ...valid.kdf, hash: 'SHA-1' } }), BackupErrorCode.malformed],
    ['another cipher', text({ ...valid, cipher: { ...valid.cipher, name: 'AES-CBC' } }), BackupErrorCode.malformed],
    [
      'a short salt',
      text({ ...valid, kdf: { ...valid.kdf, salt: encodeBase64url(new Uint8Array(8)) } }),
      BackupErrorCode.malformed,
    ],
    [
      'a long IV',
      text({ ...valid, cipher: { ...valid.cipher, iv: encodeBase64url(new Uint8Array(16)) } }),
      BackupErrorCode.malformed,
    ],
    [
      'a truncated ciphertext',
      text({ ...valid, ciphertext: encodeBase64url(new Uint8Array(47)) }),
      BackupErrorCode.malformed,
    ],
    [
      'padded base64',
      text({ ...valid, kdf: { ...valid.kdf, salt: 'AAAAAAAAAAAAAAAAAAAAAA==' } }),
      BackupErrorCode.malformed,
    ],
    [
      'standard-alphabet base64',
      text({ ...valid, ciphertext: '+' + valid.ciphertext.slice(1) }),
      BackupErrorCode.malformed,
    ],
    ['a missing member', text({ ...valid, cipher: undefined }), BackupErrorCode.malformed],
    ['a huge file', text({ ...valid, padding: 'x'.repeat(70_000) }), BackupErrorCode.notABackup],
  ])('refuses %s', async (_label, input, code) => {
    expect(await syncCodeOf(() => parseBackup(input))).toBe(code);
  });

  it('names the damaged member', () => {
    expect(() => parseBackup(text({ ...valid, kdf: { ...valid.kdf, iterations: 5 } }))).toThrow(/kdf\.iterations/);
  });
});

describe('encryptBackup: checks at the boundary', () => {
  it('refuses a short passphrase', async () => {
    expect(await codeOf(encryptBackup(aliceKey, 'short'))).toBe(BackupErrorCode.weakPassphrase);
  });

  it('refuses a key that does not match its did, or has the wrong length', async () => {
    await expect(encryptBackup({ did: bobDid, secretKey: alice.secretKey }, PASSPHRASE)).rejects.toThrow(RangeError);
    await expect(encryptBackup({ did: aliceKey.did, secretKey: new Uint8Array(31) }, PASSPHRASE)).rejects.toThrow(
      RangeError,
    );
  });

  it('refuses fewer iterations than the floor', async () => {
    await expect(encryptBackup(aliceKey, PASSPHRASE, { iterations: 1000 })).rejects.toThrow(RangeError);
  });

  it('draws a fresh salt and IV each time', async () => {
    const [a, b] = await Promise.all([encryptBackup(aliceKey, PASSPHRASE), encryptBackup(aliceKey, PASSPHRASE)]);
    expect(a.kdf.salt).not.toBe(b.kdf.salt);
    expect(a.cipher.iv).not.toBe(b.cipher.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });
});
