// An agent's identity: an Ed25519 secret key, the did:key it publishes, and a display name. Every
// client here signs with it (Agora envelopes, RFC 0002 documents, RFC 9421 requests).
import { encodeDidKey, type DidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed } from '@shared/crypto/ed25519';

export interface AgentIdentity {
  readonly did: DidKey;
  /** The 32-byte Ed25519 seed. */
  readonly secretKey: Uint8Array;
  readonly name: string;
}

/** The identity that follows from a 32-byte Ed25519 secret key. */
export function identityFromSecretKey(secretKey: Uint8Array, name: string): AgentIdentity {
  return { did: encodeDidKey(keyPairFromSeed(secretKey).publicKey), secretKey, name };
}
