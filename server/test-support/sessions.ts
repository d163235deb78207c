// Operator sessions for integration tests, made through the store exactly as login makes them.
import { randomToken, tokenHash } from '../auth/tokens';
import { SESSION_COOKIE } from '../http/session';
import type { OperatorRole, Store } from '../store/store';

export async function sessionCookie(store: Store, did: string, role: OperatorRole, now = Date.now()): Promise<string> {
  await store.access.putOperator({ did, role, createdAt: now });
  const token = randomToken();
  await store.access.createSession(tokenHash(token), { did, role, expiresAt: now + 3_600_000 });
  return `${SESSION_COOKIE}=${token}`;
}
