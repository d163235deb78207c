// A real Ed25519 operator key, signing login challenges exactly as the browser does: the RFC 8785
// canonical bytes of the `challenge` object, signature in unpadded base64url.
import { encodeBase64url } from '@shared/crypto/base64url';
import { encodeDidKey } from '@shared/crypto/did-key';
import { generateKeyPair, sign } from '@shared/crypto/ed25519';
import { canonicalBytes } from '@shared/crypto/jcs';

export interface Challenge {
  readonly purpose: string;
  readonly nonce: string;
  readonly expiresAt: number;
}

export function operatorKey() {
  const { secretKey, publicKey } = generateKeyPair();
  const did = encodeDidKey(publicKey);
  return {
    did,
    sign: (document: unknown): string => encodeBase64url(sign(canonicalBytes(document), secretKey)),
  };
}

export type OperatorKey = ReturnType<typeof operatorKey>;
