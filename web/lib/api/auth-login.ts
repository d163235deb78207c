// POST /api/auth/login: a signed challenge in, a session cookie (HttpOnly) and who we are out.
import { z } from 'zod';
import { OperatorSession } from './auth-session';
import { postJson } from './http';

export const LoginRequest = z.object({ did: z.string(), nonce: z.string(), signature: z.string() });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const postLogin = (body: LoginRequest): Promise<OperatorSession> => postJson('/api/auth/login', body, OperatorSession);
