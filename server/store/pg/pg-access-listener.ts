// LISTEN side of the access notifications (decisions-server.md §39): the statements that may
// revoke a credential (an agent's removed or rotated, an operator's role changed, a session ended)
// NOTIFY on one channel in their own transaction, delivered at COMMIT, so a server instance closes
// the MQTT connections they revoke at once, whichever process (the CLI, another instance) wrote.
// Listening again after a lost connection reports one change, which covers whatever was notified
// while no connection listened.
import { PgChannelListener } from './pg-channel-listener';

export const ACCESS_CHANGED_CHANNEL = 'switchboard_access';

/** `instance`: the payload of this store's own notifications, skipped (its process already knows). */
export function pgAccessListener(url: string, instance: string): PgChannelListener<true> {
  return new PgChannelListener<true>(url, {
    channel: ACCESS_CHANGED_CHANNEL,
    name: 'access',
    parse: (payload) => (payload === instance ? undefined : true),
    caughtUp: (first) => Promise.resolve(first ? undefined : true),
  });
}
