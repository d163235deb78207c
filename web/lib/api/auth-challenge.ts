// GET /api/auth/challenge: a single-use nonce to sign. The shape is checked strictly, so this
// browser only ever signs a login challenge, never some other document a server slips in.
import { z } from 'zod';
import { getJson } from './http';

export const LoginChallenge = z
  .object({
    purpose: z.literal('switchboard-login'),
    nonce: z.string().min(1).max(512),
    expiresAt: z.union([z.string().min(1).max(64), z.number().finite()]),
  })
  .strict();
export type LoginChallenge = z.infer<typeof LoginChallenge>;

const ChallengeResponse = z.object({ challenge: LoginChallenge });

export async function fetchChallenge(signal?: AbortSignal): Promise<LoginChallenge> {
  const { challenge } = await getJson('/api/auth/challenge', ChallengeResponse, { signal: signal ?? null, cache: 'no-store' });
  return challenge;
}
