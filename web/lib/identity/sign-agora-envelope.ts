// Signs an Agora envelope with the operator's own key, read from this browser's store only for
// the moment of signing (shared/agora/sign-envelope.ts: JCS without `sig`, Ed25519, base64url).
// The key never leaves this module; the relay gets the signed envelope and nothing else.
import type { Envelope, UnsignedEnvelope } from '@shared/agora/envelope';
import { signEnvelope } from '@shared/agora/sign-envelope';
import type { DidKey } from '@shared/crypto/did-key';
import { CodedError } from '@shared/errors';
import { identityStore, type IdentityStore } from './identity-store';

/** Builds the envelope for the stored operator's DID, then signs it with that key. */
export async function signAsOperator<T extends UnsignedEnvelope>(build: (operatorDid: DidKey) => T, store: IdentityStore = identityStore): Promise<Envelope> {
  const identity = await store.load();
  if (!identity) throw new CodedError('NO_KEY', 'This browser holds no operator key. Restore your backup to sign.');
  return signEnvelope(build(identity.did), identity.secretKey);
}

/** The DID envelopes are signed as: the stored key's, which is the signed-in operator's. */
export async function operatorDid(store: IdentityStore = identityStore): Promise<string | null> {
  return (await store.load())?.did ?? null;
}
