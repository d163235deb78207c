// Who may open the consoles' /mqtt WebSocket, whichever broker serves it (embedded aedes, or the
// console bridge to an external broker).
import type { IncomingMessage } from 'node:http';
import type { Clock } from '../clock';
import { isAllowedHost, misdirected, type AllowedHosts } from '../http/host-check';
import { sessionFromCookieHeader } from '../http/session';
import type { BrokerIdentity } from '../mqtt/acl';
import type { Store } from '../store/store';

export type ConsoleAuthenticator = (request: IncomingMessage) => Promise<BrokerIdentity | null>;

/**
 * Who opens /mqtt: the operator of a valid session cookie, from this origin only, under a Host
 * this server is known by (the upgrade does not pass through the app's host check): another Host
 * is refused with 421 as the routes refuse it (decisions-server.md §43).
 */
export function consoleAuthenticator(
  store: Store,
  clock: Clock,
  allowedHosts: AllowedHosts = [],
): ConsoleAuthenticator {
  return async (request) => {
    if (!isAllowedHost(request.headers.host, allowedHosts)) throw misdirected(request.headers.host);
    // Same-origin only: a page elsewhere must not ride the operator's cookie into /mqtt.
    const origin = request.headers.origin;
    if (
      origin !== undefined &&
      origin !== `http://${request.headers.host}` &&
      origin !== `https://${request.headers.host}`
    )
      return null;
    const session = await sessionFromCookieHeader(store, request.headers.cookie, clock.now());
    return session ? { kind: 'operator', did: session.did, role: session.role } : null;
  };
}
