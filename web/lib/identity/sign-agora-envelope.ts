// Signs an Agora envelope as the operator (shared/agora/sign-envelope.ts: JCS without `sig`,
// Ed25519, base64url) with the stored non-extractable key. The relay gets the signed envelope
// and nothing else.
import type { Envelope, UnsignedEnvelope } from '@shared/agora/envelope';
import type { DidKey } from '@shared/crypto/did-key';
import { identityStore, type IdentityStore } from './identity-store';
import { operatorSigner, signEnvelopeAs } from './operator-signer';

/** Builds the envelope for the stored operator's DID, then signs it with that key. */
export async function signAsOperator<T extends UnsignedEnvelope>(
  build: (operatorDid: DidKey) => T,
  store: IdentityStore = identityStore,
): Promise<Envelope> {
  const signer = await operatorSigner(undefined, store);
  return signEnvelopeAs(signer, build(signer.did));
}

/** The DID envelopes are signed as: the stored key's, which is the signed-in operator's. */
export async function operatorDid(store: IdentityStore = identityStore): Promise<string | null> {
  return (await store.load())?.did ?? null;
}
