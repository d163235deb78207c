// POST /api/auth/enroll: a one-time enrollment token plus a signed challenge registers the key.
import { z } from 'zod';
import { OperatorSession } from './auth-session';
import { postJson } from './http';

export const EnrollRequest = z.object({ token: z.string(), did: z.string(), nonce: z.string(), signature: z.string() });
export type EnrollRequest = z.infer<typeof EnrollRequest>;

export const postEnroll = (body: EnrollRequest): Promise<OperatorSession> => postJson('/api/auth/enroll', body, OperatorSession);
