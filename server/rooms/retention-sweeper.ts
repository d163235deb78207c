// Applies each room's history retention (decisions-server.md §25), the rejects' and the activity
// buckets' (§74), and the webhook outbox's and the inbox dismissals' (§75) on a timer, once per
// cluster (cluster/run-once.ts): the store deletes what is too old, in batches.
import type { Clock } from '../clock';
import type { InboxStore } from '../store/inbox-store';
import type { RoomStore } from '../store/store';
import { WEBHOOK_KEPT_MS, type WebhookStore } from '../store/webhook-store';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('rooms');

/** Every minute: retention is a bound on storage, not a deadline, so a minute late is harmless. */
export const RETENTION_SWEEP_MS = 60_000;

/** Runs `sweep(now)` every `everyMs` on a timer that does not keep the process alive; the stop waits for a sweep under way. */
export function startPeriodicSweep(
  what: string,
  sweep: (now: number) => Promise<unknown>,
  clock: Clock,
  everyMs = RETENTION_SWEEP_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweep(clock.now())
      .then(
        () => undefined,
        (error: unknown) => log.error({ err: error, sweep: what }, 'retention sweep failed'),
      )
      .finally(() => (running = undefined));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

export function startRetentionSweeper(
  rooms: Pick<RoomStore, 'applyRetention'>,
  clock: Clock,
  everyMs = RETENTION_SWEEP_MS,
): () => Promise<void> {
  return startPeriodicSweep('history', (now) => rooms.applyRetention(now), clock, everyMs);
}

/** Settled webhook deliveries and event ids older than WEBHOOK_KEPT_MS, and lapsed inbox dismissals. */
export function startOutboxSweeper(
  webhooks: Pick<WebhookStore, 'prune'>,
  inbox: Pick<InboxStore, 'pruneDismissals'>,
  clock: Clock,
  everyMs = RETENTION_SWEEP_MS,
): () => Promise<void> {
  return startPeriodicSweep(
    'webhooks and inbox',
    async (now) => {
      await webhooks.prune(now - WEBHOOK_KEPT_MS);
      await inbox.pruneDismissals(now);
    },
    clock,
    everyMs,
  );
}
