// Bulk Ed25519 verification in the browser. WebCrypto's Ed25519 (~6,300 verifications/s in
// Chromium here) is ten times noble's speed, so long histories and logs verify with it; noble
// (strict RFC 8032, the same rule as the server) is the fallback where a browser lacks it.
import { verify as nobleVerify } from '@shared/crypto/ed25519';

export interface VerifyItem {
  readonly publicKey: ArrayLike<number>;
  readonly message: ArrayLike<number>;
  readonly signature: ArrayLike<number>;
}

/**
 * Verifies each item with WebCrypto; `null` when this browser has no Ed25519 in WebCrypto.
 * Each distinct key is imported once, and the checks of a chunk run concurrently (a log's 20,000
 * signatures by two parties import two keys, not 20,000).
 * Self-contained on purpose (no outer references, no named inner functions): e2e/crypto-verdicts.spec.ts
 * runs this exact function in Chromium to prove its verdicts equal noble's and node:crypto's.
 */
export async function webCryptoVerifyBatch(items: readonly VerifyItem[]): Promise<boolean[] | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const keys = new Map<string, Promise<CryptoKey | null>>();
  let unsupported = false;
  const results: boolean[] = [];
  const CHUNK = 256;
  for (let start = 0; start < items.length && !unsupported; start += CHUNK) {
    const chunk = items.slice(start, start + CHUNK);
    const verdicts = await Promise.all(
      chunk.map(async (item) => {
        const publicKey = new Uint8Array(item.publicKey);
        const signature = new Uint8Array(item.signature);
        if (publicKey.length !== 32 || signature.length !== 64) return false;
        const id = publicKey.join(',');
        let key = keys.get(id);
        if (!key) {
          key = subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']).then(
            (k) => k,
            (error: unknown) => {
              if (error instanceof DOMException && error.name === 'NotSupportedError') unsupported = true;
              return null; // a key that is not a valid point cannot verify anything
            },
          );
          keys.set(id, key);
        }
        const imported = await key;
        if (!imported) return false;
        try {
          return await subtle.verify({ name: 'Ed25519' }, imported, signature, new Uint8Array(item.message));
        } catch {
          return false;
        }
      }),
    );
    results.push(...verdicts);
  }
  return unsupported ? null : results;
}

export async function verifyBatch(items: readonly VerifyItem[]): Promise<boolean[]> {
  const fast = await webCryptoVerifyBatch(items);
  if (fast) return fast;
  return items.map((item) =>
    nobleVerify(new Uint8Array(item.signature), new Uint8Array(item.message), new Uint8Array(item.publicKey)),
  );
}
