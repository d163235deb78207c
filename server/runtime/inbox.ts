// The inbox, put together (decisions-server.md, "The inbox"): one board fed by a small source per
// kind, each hooked on its domain's own events, rebuilt from the store at start so a restart loses
// no item, and the service the routes serve (claims, summary, versions) over it.
import type { InboxSummary } from '@shared/contract/inbox';
import type { Clock } from '../clock';
import type { Gateway } from '../gateway/gateway';
import { InboxBoard } from '../inbox/inbox-board';
import { InboxService, type OperatorName } from '../inbox/inbox-service';
import { startCosignSource } from '../inbox/cosign-source';
import { startGrantSource } from '../inbox/grant-source';
import { startQuestionSource } from '../inbox/question-source';
import { startRejectsSource } from '../inbox/rejects-source';
import { startReviewSource } from '../inbox/review-source';
import { startServiceSource } from '../inbox/service-source';
import { startSlotSource } from '../inbox/slot-source';
import type { ServiceStatusBoard } from '../external/service-status';
import type { NegotiationService } from '../negotiation/negotiation-service';
import type { OacopReadModels } from '../oacop/oacop-read-models';
import type { EventFeed } from '../relay/event-feed';
import type { InboxSource, SourceContext } from '../inbox/source-context';
import type { BrokerPort } from '../mqtt/broker-port';
import type { PresenceTracker } from '../rooms/presence-tracker';
import type { Store } from '../store/store';

/** A room counts as active with a message in this long. */
const ACTIVE_ROOM_MS = 60 * 60_000;

export interface InboxParts {
  readonly store: Store;
  readonly clock: Clock;
  readonly broker: BrokerPort;
  readonly gateway: Gateway;
  readonly presence?: PresenceTracker;
  readonly negotiations: NegotiationService;
  readonly oacop: OacopReadModels;
  /** The relay's feed: its cue that envelopes were stored. */
  readonly feed: EventFeed;
  /** The external-services bridge's status board. */
  readonly services: ServiceStatusBoard;
  /** How often time-based items (grants, reject bursts) are looked at again; tests shorten it. */
  readonly everyMs?: number;
  readonly operatorName?: OperatorName;
  /** The demo's own agents' DIDs when the demo runs: parties of this server (decisions-server.md §75). */
  readonly demoDids?: readonly string[];
}

export interface RunningInbox {
  readonly service: InboxService;
  /** Re-reads every source's facts from the store. */
  rebuild(): Promise<void>;
  stop(): void;
}

export async function startInbox(parts: InboxParts): Promise<RunningInbox> {
  const { store, clock } = parts;
  const board = new InboxBoard();
  const ctx: SourceContext = { board, store, clock };
  const rejects = startRejectsSource(ctx, parts.gateway, parts.everyMs);
  const sources: InboxSource[] = [
    startReviewSource(ctx, parts.broker),
    startCosignSource(ctx, parts.negotiations),
    startSlotSource(ctx, parts.oacop, parts.feed, {
      // decisions-server.md §75: enrolled operators and the demo's agents, read at each look.
      localParties: async () =>
        new Set([...(parts.demoDids ?? []), ...(await store.access.listOperators()).map((o) => o.did)]),
    }),
    startQuestionSource(ctx, parts.broker),
    startGrantSource(ctx, parts.broker, parts.everyMs),
    rejects,
    startServiceSource(ctx, parts.services),
  ];
  const summary = async (): Promise<InboxSummary> => {
    const now = clock.now();
    const rooms = await store.rooms.listRooms();
    const online = new Set<string>();
    for (const room of rooms)
      for (const agent of parts.presence?.list(room.id) ?? []) if (agent.status === 'online') online.add(agent.agentId);
    return {
      roomsActive: rooms.filter((r) => r.lastActivityAt !== null && r.lastActivityAt > now - ACTIVE_ROOM_MS).length,
      agentsOnline: online.size,
      rejectsLastHour: rejects.lastHour(),
    };
  };
  const service = new InboxService({
    board,
    clock,
    store,
    summary,
    ...(parts.operatorName ? { operatorName: parts.operatorName } : {}),
  });
  const rebuild = async () => {
    // Dismissals first, so a dismissed item is never put back, even for a moment.
    await service.loadDismissals();
    for (const source of sources) await source.rebuild();
  };
  await rebuild();
  return {
    service,
    rebuild,
    stop() {
      for (const source of sources) source.stop();
      service.close();
    },
  };
}
