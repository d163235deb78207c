// POST /api/auth/enroll: a one-time enrollment token plus a signed challenge registers the key.
import { OperatorSession, type EnrollBody } from '@shared/contract/auth';
import { postJson } from './http';

export const postEnroll = (body: EnrollBody): Promise<OperatorSession> =>
  postJson('/api/auth/enroll', body, OperatorSession);
