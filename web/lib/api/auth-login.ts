// POST /api/auth/login: a signed challenge in, a session cookie (HttpOnly) and who we are out.
import { OperatorSession, type LoginBody } from '@shared/contract/auth';
import { postJson } from './http';

export const postLogin = (body: LoginBody): Promise<OperatorSession> =>
  postJson('/api/auth/login', body, OperatorSession);
