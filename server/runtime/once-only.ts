// The work an instance runs only while it holds the cluster's run-once lock (cluster/run-once.ts).
import type { Clock } from '../clock';
import type { StartWork } from '../cluster/run-once';
import type { Gateway } from '../gateway/gateway';
import type { NegotiationService } from '../negotiation/negotiation-service';
import { startNegotiationSweeper } from '../negotiation/negotiation-sweeper';
import type { RelayServices } from '../relay/relay-services';
import { startThreadSweeper } from '../relay/thread-sweeper';
import { startOutboxSweeper, startRetentionSweeper } from '../rooms/retention-sweeper';
import type { Store } from '../store/store';
import { Lifecycle } from './lifecycle';

/**
 * What runs once per cluster (cluster/run-once.ts): the sweepers (expired grants, timed-out
 * threads → ERROR, valid_until → EXPIRED, history beyond a room's retention) and the demo agents,
 * started in order and stopped in reverse.
 */
export function onceOnlyWork(
  parts: { gateway: Gateway; relay: RelayServices; clock: Clock; negotiations: NegotiationService; store: Store },
  demos: StartWork[],
): StartWork {
  return async () => {
    const work = new Lifecycle();
    work.started(parts.gateway.sweepEvery());
    work.started(startThreadSweeper(parts.relay.relay.store, parts.clock, parts.relay.relay.timeouts));
    work.started(startNegotiationSweeper(parts.negotiations));
    work.started(startRetentionSweeper(parts.store.rooms, parts.clock));
    work.started(startOutboxSweeper(parts.store.webhooks, parts.store.inbox, parts.clock));
    try {
      for (const start of demos) work.started(await start());
    } catch (error) {
      await work.close();
      throw error;
    }
    return () => work.close();
  };
}
