// Checked once at boot, before any screen that makes, restores or uses the operator's key: the
// key is kept only as a non-extractable WebCrypto Ed25519 key, never as raw bytes in storage, so
// a browser without Ed25519 in WebCrypto gets a message instead of a weaker fallback. No imports,
// so the entry chunk stays small.

export const KEY_STORAGE_UNSUPPORTED = 'KEY_STORAGE_UNSUPPORTED';

const ED25519 = { name: 'Ed25519' } as const;

/**
 * Whether this browser can hold the key as a CryptoKey: makes a throwaway non-extractable
 * Ed25519 key, signs with it and checks the signature. Any failure, or a missing
 * `crypto.subtle` (an insecure context), is a no: there is no fallback to raw bytes.
 */
export async function detectEd25519(
  source: { readonly subtle?: SubtleCrypto } | undefined = globalThis.crypto,
): Promise<boolean> {
  const subtle = source?.subtle;
  if (!subtle) return false;
  try {
    const pair = (await subtle.generateKey(ED25519, false, ['sign', 'verify'])) as CryptoKeyPair;
    const probe = new TextEncoder().encode('switchboard: can this browser keep a key?');
    const signature = await subtle.sign(ED25519, pair.privateKey, probe);
    if (signature.byteLength !== 64 || pair.privateKey.extractable) return false;
    return await subtle.verify(ED25519, pair.publicKey, signature, probe);
  } catch {
    return false;
  }
}
