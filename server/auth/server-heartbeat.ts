// A running server says, in its store, that it serves that store and at which address
// (decisions-server.md §85). The operator CLI reads it before it prints an enrollment link: a
// link into a store no server uses cannot work, and the address a server listens on is the one a
// link must carry.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { ServerBeat, Store } from '../store/store';

export const SERVER_BEAT_MS = 15_000;
/** Three missed beats: the server is gone (or hung, which for a link is the same). */
export const SERVER_GONE_MS = 3 * SERVER_BEAT_MS;

/** Beats now and every SERVER_BEAT_MS, on a timer that keeps no process alive; the stop forgets this server. */
export async function startServerHeartbeat(
  store: Pick<Store, 'access'>,
  baseUrl: string,
  clock: Clock,
  everyMs = SERVER_BEAT_MS,
): Promise<{ readonly instance: string; stop(): Promise<void> }> {
  const instance = randomUUID();
  const beat = () => store.access.beatServer({ instance, baseUrl, pid: process.pid, beatAt: clock.now() });
  await beat();
  const timer = setInterval(() => void beat().catch(() => undefined), everyMs);
  timer.unref();
  return {
    instance,
    async stop() {
      clearInterval(timer);
      await store.access.forgetServer(instance).catch(() => undefined);
    },
  };
}

/** The servers using this store now, newest beat first. */
export function liveServers(store: Pick<Store, 'access'>, now: number): Promise<ServerBeat[]> {
  return store.access.liveServers(now - SERVER_GONE_MS);
}
