// /threads/$threadId[?source=<serviceId>]: one Agora thread. Without a source it is the built-in
// relay's, live through the relay's cursor long-poll; with one it was bridged from that external
// relay, read from what the bridge stored, and what the operator signs goes through
// /api/external/:serviceId/events. Both render the same ThreadScreen (decisions-web.md §15).
import { StoryLink } from '@web/components/story-link';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearch } from '@tanstack/react-router';
import { Notice } from '@web/components/ui/notice';
import { SourceBadge } from '@web/components/ui/source-badge';
import { StatusDot } from '@web/components/ui/status-dot';
import { postEnvelope } from '@web/lib/api/agora-event-post';
import { threadQuery } from '@web/lib/api/agora-thread';
import { externalThreadQuery } from '@web/lib/api/external-thread';
import { sendBlockedReason } from '@web/lib/external-blocked';
import type { SourceSearch } from '@web/lib/source-search';
import { useMemo } from 'react';
import { bridgeNote } from './bridge-verdict';
import { ThreadScreen } from './thread-screen';
import { threadTimeline, timelineEntry } from './thread-timeline';
import { useThreadLive, type LiveStatus } from './use-thread-live';

const LIVE_WORDS: Record<LiveStatus, { tone: 'ok' | 'warn' | 'idle'; label: string }> = {
  connecting: { tone: 'idle', label: 'Connecting…' },
  live: { tone: 'ok', label: 'Live' },
  reconnecting: { tone: 'warn', label: 'Reconnecting…' },
  ended: { tone: 'idle', label: 'Thread ended' },
};

const REACH_WORDS = {
  up: { tone: 'ok', label: 'Up' },
  down: { tone: 'down', label: 'Down' },
  connecting: { tone: 'idle', label: 'Connecting…' },
} as const;

export function ThreadPage() {
  const { threadId } = useParams({ from: '/console/threads/$threadId' });
  const { source } = useSearch({ strict: false }) as SourceSearch;
  return source ? <ExternalThread serviceId={source} threadId={threadId} /> : <BuiltinThread threadId={threadId} />;
}

function BuiltinThread({ threadId }: { threadId: string }) {
  const detail = useQuery(threadQuery(threadId));
  const data = useMemo(() => {
    if (!detail.data) return undefined;
    const { thread, events } = detail.data;
    return { state: thread.state, expected: thread.expected, entries: threadTimeline(events), events };
  }, [detail.data]);
  const terminal = data?.state.status === 'COMPLETED' || data?.state.status === 'ERROR';
  const live = LIVE_WORDS[useThreadLive(threadId, detail.data?.events.at(-1)?.cursor, terminal)];
  return (
    <ThreadScreen
      threadId={threadId}
      read={detail}
      data={data}
      source={<SourceBadge name="built-in" />}
      status={<StatusDot tone={live.tone} label={live.label} />}
      links={<StoryLink kind="thread" id={threadId} />}
      blocked={null}
      send={(envelope) => postEnvelope(envelope)}
      queryKey={threadQuery(threadId).queryKey}
      relayName="The relay"
    />
  );
}

function ExternalThread({ serviceId, threadId }: { serviceId: string; threadId: string }) {
  const detail = useQuery(externalThreadQuery(serviceId, threadId));
  const data = useMemo(() => {
    if (!detail.data) return undefined;
    const { thread, events } = detail.data;
    // Kept in the server's order: the order the thread took them, then what was not applied.
    const rows = events.map((e) => ({
      event: e,
      entry: timelineEntry({ seq: e.seq, cursor: `bridged_${e.seq}`, receivedAt: e.receivedAt, envelope: e.envelope }),
    }));
    return {
      state: thread.state,
      expected: thread.expected,
      entries: rows.map((r) => r.entry),
      events,
      bridge: new Map(rows.map((r) => [r.entry.key, bridgeNote(r.event)])),
    };
  }, [detail.data]);
  // Cached data stays on screen while a re-read fails; only the status says so.
  const service = detail.data?.source;
  const reach = service ? REACH_WORDS[service.status.state] : REACH_WORDS.connecting;
  const blocked = service ? sendBlockedReason(service, 'threads') : 'The relay is not known yet.';
  return (
    <ThreadScreen
      threadId={threadId}
      read={detail}
      data={data}
      source={service ? <SourceBadge name={service.name} down={service.status.state === 'down'} /> : null}
      status={
        <span data-testid="source-status">
          <StatusDot
            tone={detail.isRefetchError ? 'warn' : reach.tone}
            label={detail.isRefetchError ? 'Cannot reach the console; retrying…' : reach.label}
          />
        </span>
      }
      banner={
        blocked && service ? (
          <Notice
            tone={service.status.state === 'down' ? 'error' : 'info'}
            title={service.status.state === 'down' ? 'Relay down: showing what was fetched before' : 'Read-only relay'}
          >
            {blocked}
          </Notice>
        ) : null
      }
      blocked={blocked}
      send={(envelope) => postEnvelope(envelope, serviceId)}
      queryKey={externalThreadQuery(serviceId, threadId).queryKey}
      relayName={service?.name ?? 'The relay'}
    />
  );
}
