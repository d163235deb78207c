// "Timeout (no OFFER) → ERROR", "Timeout (no RESULT) → ERROR" (Agora "State Transitions"):
// threads past their deadline are ticked in the store. Each write is a compare-and-set on the
// thread's version, so two instances sweeping at once, or a message arriving meanwhile, can
// never both win: the loser simply skips the thread.
import { threadDeadline, tick } from '@shared/agora/thread-state';
import type { ThreadTimeouts } from '@shared/agora/thread-state';
import type { Clock } from '../clock';
import type { RelayStore } from '../store/relay-store';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('relay');

export async function sweepThreads(
  store: RelayStore,
  clock: Clock,
  timeouts: ThreadTimeouts,
  batch = 500,
): Promise<number> {
  const now = clock.now();
  let ended = 0;
  for (const thread of await store.listDueThreads(now, batch)) {
    const next = tick(thread.state, now, timeouts);
    if (next === thread.state) {
      // Timeouts were lengthened since the deadline was written: store the new one.
      await store.updateThread(
        thread.threadId,
        thread.version,
        { state: next, deadlineAt: threadDeadline(next, timeouts) },
        now,
      );
      continue;
    }
    if (
      await store.updateThread(
        thread.threadId,
        thread.version,
        { state: next, deadlineAt: threadDeadline(next, timeouts) },
        now,
      )
    )
      ended++;
  }
  return ended;
}

/** Sweeps every `everyMs` on a timer that does not keep the process alive. */
export function startThreadSweeper(
  store: RelayStore,
  clock: Clock,
  timeouts: ThreadTimeouts,
  everyMs = 5_000,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepThreads(store, clock, timeouts)
      .catch((error: unknown) => log.error({ err: error }, 'thread sweep failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
