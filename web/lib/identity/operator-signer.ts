// Signing as the operator with the stored CryptoKey. The bytes signed are shared/'s own
// (signingBytes: the document without its signature field, JCS), and Ed25519 is deterministic,
// so every signature equals the one shared/crypto would make with the same key's bytes.
import type { Envelope, UnsignedEnvelope } from '@shared/agora/envelope';
import { checkEnvelopeToSign } from '@shared/agora/sign-envelope';
import { encodeBase64url } from '@shared/crypto/base64url';
import type { DidKey } from '@shared/crypto/did-key';
import { signingBytes } from '@shared/crypto/signed-document';
import { CodedError } from '@shared/errors';
import { identityStore, type IdentityStore, type StoredIdentity } from './identity-store';
import { signWithKey } from './webcrypto-ed25519';

export interface OperatorSigner {
  readonly did: DidKey;
  /** The Ed25519 signature over exactly these bytes. */
  sign(message: Uint8Array): Promise<Uint8Array>;
}

export const signerOf = (identity: Pick<StoredIdentity, 'did' | 'privateKey'>): OperatorSigner => ({
  did: identity.did,
  sign: (message) => signWithKey(identity.privateKey, message),
});

/** The stored key's signer; `NO_KEY` when this browser holds none, or not the expected operator's. */
export async function operatorSigner(
  expectedDid?: string,
  store: IdentityStore = identityStore,
): Promise<OperatorSigner> {
  const identity = await store.load();
  if (!identity)
    throw new CodedError('NO_KEY', 'This browser holds no operator key to sign with. Restore your backup to sign.');
  if (expectedDid !== undefined && identity.did !== expectedDid) {
    throw new CodedError('NO_KEY', 'The key in this browser is not the signed-in operator’s.');
  }
  return signerOf(identity);
}

/** shared/crypto/signed-document.ts `signDocument`, with the signature made by `signer`. */
export async function signDocumentAs<T extends Readonly<Record<string, unknown>>, F extends string>(
  signer: OperatorSigner,
  document: T,
  field: F,
): Promise<T & { readonly [K in F]: string }> {
  const signature = encodeBase64url(await signer.sign(signingBytes(document, field)));
  return { ...document, [field]: signature } as T & { readonly [K in F]: string };
}

/** shared/agora/sign-envelope.ts `signEnvelope`, with the signature made by `signer`. */
export async function signEnvelopeAs(signer: OperatorSigner, unsigned: UnsignedEnvelope): Promise<Envelope> {
  return (await signDocumentAs(signer, checkEnvelopeToSign(unsigned, signer.did), 'sig')) as Envelope;
}
