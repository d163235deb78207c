// One-time enrollment links: the only way an operator's did:key gets a role, apart from the CLI.
// The token rides in the URL fragment (`#token=`), which browsers never send to a server, so it
// cannot reach access logs or a Referer header.
import type { Store, OperatorRole } from '../store/store';
import { randomToken, tokenHash } from './tokens';

export const ENROLLMENT_TTL_MS = 24 * 60 * 60 * 1000;

/** Stores a fresh single-use token for `role`, valid for 24 hours, and returns it (once). */
export async function createEnrollmentToken(store: Store, role: OperatorRole, now: number): Promise<string> {
  const token = randomToken();
  await store.access.createEnrollment(tokenHash(token), role, now + ENROLLMENT_TTL_MS);
  return token;
}

/** The id a link is listed and audited by: the head of its token's hash (PendingInvite.id). */
export const inviteId = (token: string): string => tokenHash(token).slice(0, 16);

/**
 * An invitation, as the Operators screen and the CLI make it (decisions-server.md §84): a
 * single-use token for `role`, valid for `ttlMs`, audited as `operator.invite` by `by` (a did, or
 * `cli`). The token is answered once and never stored or audited; the audit names its id.
 */
export async function inviteOperator(
  store: Store,
  invite: { readonly role: OperatorRole; readonly ttlMs: number; readonly by: string; readonly now: number },
): Promise<{ token: string; id: string; expiresAt: number }> {
  const token = randomToken();
  const expiresAt = invite.now + invite.ttlMs;
  await store.access.createEnrollment(tokenHash(token), invite.role, expiresAt, {
    createdAt: invite.now,
    createdBy: invite.by,
  });
  const id = inviteId(token);
  await store.access.appendAudit({
    at: invite.now,
    actorDid: invite.by,
    action: 'operator.invite',
    roomId: null,
    messageId: null,
    details: { role: invite.role, expiresAt, inviteId: id },
  });
  return { token, id, expiresAt };
}

export function enrollmentLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/enroll#token=${token}`;
}

/**
 * The console's URL for a listening address. An unspecified address (0.0.0.0, ::) becomes
 * localhost: browsers treat http://localhost as a secure context, which WebCrypto keys need.
 */
export function consoleBaseUrl(host: string, port: number): string {
  const unspecified = host === '0.0.0.0' || host === '::' || host === '';
  const name = unspecified ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * First start: with no operator enrolled yet, creates a facilitator token and returns the line
 * to print. A token left unused by an earlier start simply expires.
 */
export async function firstStartEnrollmentLine(
  store: Store,
  baseUrl: string,
  now: number,
): Promise<string | undefined> {
  if ((await store.access.listOperators()).length > 0) return undefined;
  const token = await createEnrollmentToken(store, 'facilitator', now);
  return `Enroll the first facilitator: ${enrollmentLink(baseUrl, token)}`;
}
