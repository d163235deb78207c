// Applies each room's history retention (decisions-server.md §25) on a timer, once per cluster
// (cluster/run-once.ts): the store deletes the oldest rows beyond it, in batches.
import type { Clock } from '../clock';
import type { RoomStore } from '../store/store';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('rooms');

/** Every minute: retention is a bound on storage, not a deadline, so a minute late is harmless. */
export const RETENTION_SWEEP_MS = 60_000;

/** Sweeps every `everyMs` on a timer that does not keep the process alive; the stop waits for a sweep under way. */
export function startRetentionSweeper(
  rooms: Pick<RoomStore, 'applyRetention'>,
  clock: Clock,
  everyMs = RETENTION_SWEEP_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = rooms
      .applyRetention(clock.now())
      .then(
        () => undefined,
        (error: unknown) => log.error({ err: error }, 'history retention sweep failed'),
      )
      .finally(() => (running = undefined));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
