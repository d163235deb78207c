// GET /api/auth/challenge: a single-use nonce to sign (shape: shared/contract/auth.ts).
import { Challenge, type LoginChallenge } from '@shared/contract/auth';
import { getJson } from './http';

export async function fetchChallenge(signal?: AbortSignal): Promise<LoginChallenge> {
  const { challenge } = await getJson('/api/auth/challenge', Challenge, { signal: signal ?? null, cache: 'no-store' });
  return challenge;
}
