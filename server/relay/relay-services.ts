// Wires the relay's parts over one store: the ingest, the long-poll feed and the directory.
import { DEFAULT_THREAD_TIMEOUTS } from '@shared/agora/thread-state';
import type { ThreadTimeouts } from '@shared/agora/thread-state';
import type { Clock } from '../clock';
import type { DidVerifier } from '../crypto/node-verifier';
import type { RelayStore } from '../store/relay-store';
import { AgoraRelay } from './agora-relay';
import { Directory } from './directory';
import type { AorLinkSource, PresenceSource } from './directory';
import { EventFeed } from './event-feed';
import { QueryReplayGuard } from './query-replay-guard';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('relay');

export interface RelayServices {
  readonly relay: AgoraRelay;
  readonly directory: Directory;
  readonly feed: EventFeed;
  readonly queries: QueryReplayGuard;
}

export interface RelayServiceOptions {
  readonly store: RelayStore;
  readonly clock: Clock;
  readonly presence?: PresenceSource;
  /** AOR credentials the console bound to a DID; absent, every `aor_agent_id` is an unverified claim. */
  readonly aorLinks?: AorLinkSource;
  readonly timeouts?: ThreadTimeouts;
  readonly verifier?: DidVerifier;
}

export function createRelayServices(options: RelayServiceOptions): RelayServices {
  // headSeq 0: the first long-poll's store read moves the feed to the real head (EventFeed.wait).
  const feed = new EventFeed({ now: () => options.clock.now(), headSeq: 0 });
  const relay = new AgoraRelay({
    store: options.store,
    clock: options.clock,
    feed,
    timeouts: options.timeouts ?? DEFAULT_THREAD_TIMEOUTS,
    ...(options.verifier ? { verifier: options.verifier } : {}),
  });
  return {
    relay,
    feed,
    directory: new Directory(relay, options.presence, options.aorLinks),
    queries: new QueryReplayGuard({ startedAt: options.clock.now() }),
  };
}

/**
 * Another server instance sharing the database wakes nobody here by itself. When the store pushes
 * heads (PostgreSQL LISTEN/NOTIFY) waiters re-read as soon as another instance commits; the
 * store's head is still read every `everyMs` (every `everyMs * 15` with a push, as a safety net
 * for a notification lost with its connection) while long-polls wait (decisions-server.md §15).
 */
export function watchStoreHead(services: RelayServices, everyMs = 1_000): () => void {
  const store = services.relay.store;
  const stopPush = store.watchHead?.((head) => services.feed.noticeHead(head));
  const timer = setInterval(
    () => {
      if (services.feed.waiting === 0) return;
      store
        .headSeq()
        .then((head) => services.feed.noticeHead(head))
        .catch((error: unknown) => log.error({ err: error }, 'reading the store head failed'));
    },
    stopPush ? everyMs * 15 : everyMs,
  );
  timer.unref();
  return () => {
    clearInterval(timer);
    stopPush?.();
  };
}
