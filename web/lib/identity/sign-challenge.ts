// Signing in and enrolling: fetch a challenge, sign its canonical bytes (RFC 8785) with the
// stored non-extractable key, send did + nonce + signature. The private key itself is never sent.
import { CodedError } from '@shared/errors';
import { encodeBase64url } from '@shared/crypto/base64url';
import { canonicalBytes } from '@shared/crypto/jcs';
import type { LoginChallenge } from '@shared/contract/auth';
import { fetchChallenge } from '@web/lib/api/auth-challenge';
import { postEnroll } from '@web/lib/api/auth-enroll';
import { postLogin } from '@web/lib/api/auth-login';
import type { OperatorSession } from '@shared/contract/auth';
import { identityStore, type IdentityStore } from './identity-store';
import { operatorSigner, type OperatorSigner } from './operator-signer';

export interface SignedChallenge {
  readonly did: string;
  readonly nonce: string;
  readonly signature: string;
}

export async function signChallenge(challenge: LoginChallenge, signer: OperatorSigner): Promise<SignedChallenge> {
  const signature = await signer.sign(canonicalBytes(challenge));
  return { did: signer.did, nonce: challenge.nonce, signature: encodeBase64url(signature) };
}

async function storedOrThrow(store: IdentityStore): Promise<OperatorSigner> {
  try {
    return await operatorSigner(undefined, store);
  } catch (error) {
    if (error instanceof CodedError && error.code === 'NO_KEY') {
      throw new CodedError(
        'NO_KEY',
        'This browser holds no operator key. Open an enrollment link or restore a backup.',
      );
    }
    throw error;
  }
}

export async function signIn(store: IdentityStore = identityStore): Promise<OperatorSession> {
  const signer = await storedOrThrow(store);
  return postLogin(await signChallenge(await fetchChallenge(), signer));
}

/** `name` (optional) is the display name other operators see; blank means none. */
export async function enroll(
  token: string,
  store: IdentityStore = identityStore,
  name?: string,
): Promise<OperatorSession> {
  if (!token) throw new CodedError('ENROLLMENT_INVALID', 'This enrollment link has no token.');
  const signer = await storedOrThrow(store);
  const given = name?.trim() ? { name } : {};
  return postEnroll({ token, ...(await signChallenge(await fetchChallenge(), signer)), ...given });
}
