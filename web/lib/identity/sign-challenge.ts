// Signing in and enrolling: fetch a challenge, sign its canonical bytes (RFC 8785) with the
// stored key, send did + nonce + signature. The private key itself is never sent.
import { CodedError } from '@shared/errors';
import { encodeBase64url } from '@shared/crypto/base64url';
import { canonicalBytes } from '@shared/crypto/jcs';
import { sign } from '@shared/crypto/ed25519';
import { fetchChallenge, type LoginChallenge } from '@web/lib/api/auth-challenge';
import { postEnroll } from '@web/lib/api/auth-enroll';
import { postLogin } from '@web/lib/api/auth-login';
import type { OperatorSession } from '@web/lib/api/auth-session';
import { identityStore, type IdentityStore, type StoredIdentity } from './identity-store';

export interface SignedChallenge {
  readonly did: string;
  readonly nonce: string;
  readonly signature: string;
}

export function signChallenge(challenge: LoginChallenge, identity: Pick<StoredIdentity, 'did' | 'secretKey'>): SignedChallenge {
  const signature = sign(canonicalBytes(challenge), identity.secretKey);
  return { did: identity.did, nonce: challenge.nonce, signature: encodeBase64url(signature) };
}

async function storedOrThrow(store: IdentityStore): Promise<StoredIdentity> {
  const identity = await store.load();
  if (!identity) throw new CodedError('NO_KEY', 'This browser holds no operator key. Open an enrollment link or restore a backup.');
  return identity;
}

export async function signIn(store: IdentityStore = identityStore): Promise<OperatorSession> {
  const identity = await storedOrThrow(store);
  return postLogin(signChallenge(await fetchChallenge(), identity));
}

export async function enroll(token: string, store: IdentityStore = identityStore): Promise<OperatorSession> {
  if (!token) throw new CodedError('ENROLLMENT_INVALID', 'This enrollment link has no token.');
  const identity = await storedOrThrow(store);
  return postEnroll({ token, ...signChallenge(await fetchChallenge(), identity) });
}
