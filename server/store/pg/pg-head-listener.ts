// LISTEN side of the relay's head notifications: every append transaction that stores an
// envelope NOTIFYs its seq on one channel, delivered at COMMIT in commit order, so a long-poll on
// any instance wakes for an event stored through any other. After a lost connection the store's
// head is reported, which covers whatever was notified while no connection listened.
import { PgChannelListener } from './pg-channel-listener';

export const RELAY_HEAD_CHANNEL = 'switchboard_relay_head';

/** The NOTIFY payload: who stored it (the store instance) and the highest seq it committed. */
export const headPayload = (instance: string, seq: number): string => `${instance} ${seq}`;

/** `instance`: notifications from this store itself are skipped (its own feed published them). */
export function pgHeadListener(
  url: string,
  instance: string,
  readHead: () => Promise<number>,
): PgChannelListener<number> {
  return new PgChannelListener<number>(url, {
    channel: RELAY_HEAD_CHANNEL,
    name: 'relay-head',
    parse: (payload) => {
      const [from, seqText] = payload.split(' ');
      const seq = Number(seqText);
      return from === instance || !Number.isSafeInteger(seq) ? undefined : seq;
    },
    caughtUp: () => readHead(),
  });
}
