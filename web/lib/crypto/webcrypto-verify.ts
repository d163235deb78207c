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
 * Self-contained on purpose (no outer references): e2e/crypto-verdicts.spec.ts runs this exact
 * function in Chromium to prove its verdicts equal noble's and node:crypto's.
 */
export async function webCryptoVerifyBatch(items: readonly VerifyItem[]): Promise<boolean[] | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const results: boolean[] = [];
  for (const item of items) {
    const publicKey = new Uint8Array(item.publicKey);
    const signature = new Uint8Array(item.signature);
    if (publicKey.length !== 32 || signature.length !== 64) {
      results.push(false);
      continue;
    }
    let key: CryptoKey;
    try {
      key = await subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'NotSupportedError') return null;
      results.push(false); // a key that is not a valid point cannot verify anything
      continue;
    }
    try {
      results.push(await subtle.verify({ name: 'Ed25519' }, key, signature, new Uint8Array(item.message)));
    } catch {
      results.push(false);
    }
  }
  return results;
}

export async function verifyBatch(items: readonly VerifyItem[]): Promise<boolean[]> {
  const fast = await webCryptoVerifyBatch(items);
  if (fast) return fast;
  return items.map((item) =>
    nobleVerify(new Uint8Array(item.signature), new Uint8Array(item.message), new Uint8Array(item.publicKey)),
  );
}
