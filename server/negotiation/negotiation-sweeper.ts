// `valid_until` moves a negotiation to EXPIRED whether or not anyone asks: a
// timer ticks the due ones. Each write is a compare-and-set, so an event arriving meanwhile or
// a second instance sweeping cannot both win (the same pattern as relay/thread-sweeper.ts).
import type { NegotiationService } from './negotiation-service';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('negotiation');

/** Sweeps every `everyMs` on a timer that does not keep the process alive. */
export function startNegotiationSweeper(service: NegotiationService, everyMs = 1_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    service
      .expireDue()
      .catch((error: unknown) => log.error({ err: error }, 'expiry sweep failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
