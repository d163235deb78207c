import type { Room } from '@shared/contract/rooms';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { displayText } from '@web/lib/display-text';
import { Notice } from '@web/components/ui/notice';
import { PresenceAvatars } from '@web/components/presence-avatars';
import { StatusDot } from '@web/components/ui/status-dot';
import { roomQuery } from '@web/lib/api/rooms-get';
import { StoryLink } from '@web/components/story-link';
import { RoomUnavailable } from './room-unavailable';
import { setModeration } from '@web/lib/api/rooms-moderation';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { openRoom } from '@web/lib/mqtt/room-connection';
import { useLiveRooms, useRoomLive } from '@web/lib/mqtt/room-store';
import type { TimelineEntry } from '@web/lib/mqtt/timeline-merge';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useStagedMount } from '@web/lib/use-staged-mount';
import { AgentsPanel } from './agents-panel';
import { ControlLog, candidateSenders } from './control-log';
import { AssignTaskForm, SayBox, type SayDraft } from './facilitate-forms';
import { GrantsPanel } from './grants-panel';
import { InspectorDialog } from './inspector-dialog';
import { PublicTimeline, TimelinePlaceholder } from './public-timeline';
import { RetentionSetting } from './retention-setting';
import { ReviewQueue } from './review-queue';
import { ReviewModeSwitch } from './review-mode-switch';
import { roomErrorInWords } from '@web/lib/room-words';

// The health panel and its charts are a chunk of their own, fetched with the page's last stage:
// nothing of them stands between a click and the room's messages (docs/decisions-web.md §24).
const HealthPanel = lazy(() => import('./health-panel').then((m) => ({ default: m.HealthPanel })));

// A live region: "Reconnecting…" and "Live" are announced when the connection drops and comes
// back; the reason stays in the title, so a retry's error is not read out each time.
function ConnectionBadge() {
  const status = useLiveRooms((s) => s.status);
  const error = useLiveRooms((s) => s.lastError);
  const tone = status === 'live' ? 'ok' : status === 'reconnecting' ? 'warn' : 'idle';
  const label = status === 'live' ? 'Live' : status === 'reconnecting' ? 'Reconnecting…' : 'Connecting…';
  return (
    <span role="status" title={error ?? undefined} data-testid="connection-status">
      <StatusDot tone={tone} label={label} />
    </span>
  );
}

/** While reconnecting: what the reader sees is kept, and what is said meanwhile will follow. */
function ReconnectingNote() {
  const reconnecting = useLiveRooms((s) => s.status === 'reconnecting');
  if (!reconnecting) return null;
  return (
    <p data-testid="connection-note" className="mt-2 text-sm text-slate-600 dark:text-slate-400">
      The live connection dropped. Everything shown so far stays; messages sent meanwhile will appear, in order, once it
      is back. Retrying on its own.
    </p>
  );
}

function RoomControlLog({ roomId, onInspect }: { roomId: string; onInspect: (entry: TimelineEntry) => void }) {
  const entries = useRoomLive(roomId).timeline.entries;
  const { control, senders } = useMemo(
    () => ({ control: entries.filter((e) => e.topicKind === 'control'), senders: candidateSenders(entries) }),
    [entries],
  );
  return <ControlLog roomId={roomId} entries={control} senders={senders} onInspect={onInspect} />;
}

export function RoomPage() {
  const { roomId } = useParams({ from: '/console/rooms/$roomId' });
  const room = useQuery(roomQuery(roomId));
  const session = useSession();
  const facilitator = canAct(session);
  const did = session?.did ?? '';
  // Only what this page shows itself: the timeline and the control log subscribe to the live
  // timeline on their own, so a live burst does not re-render the panels and forms here.
  const history = useLiveRooms((s) => s.rooms[roomId]?.history);
  const historyError = useLiveRooms((s) => s.rooms[roomId]?.historyError);
  const [inspected, setInspected] = useState<TimelineEntry | null>(null);
  const [draft, setDraft] = useState<SayDraft | null>(null);
  const reply = (agentId: string) => setDraft((old) => ({ text: `@${agentId} `, n: (old?.n ?? 0) + 1 }));
  const queryClient = useQueryClient();
  // The header first, then the timeline, then the forms, panels and control log, each its own
  // commit. Rendered and laid out together they were one 60–100 ms task on opening a room
  // (bench/ui.ts, docs/decisions-web.md).
  const stage = useStagedMount(2);
  const withPanels = stage >= 2;

  useEffect(() => openRoom(roomId), [roomId]);

  const moderationChanged = (updated: Room) => {
    queryClient.setQueryData(roomQuery(roomId).queryKey, updated);
    void queryClient.invalidateQueries({ queryKey: ['rooms'], exact: true });
  };
  const moderation = useMutation({
    mutationFn: (mode: 'auto' | 'review') => setModeration(roomId, mode),
    onSuccess: moderationChanged,
  });

  if (room.isError) return <RoomUnavailable roomId={roomId} error={room.error} />;
  const review = room.data?.moderation === 'review';

  return (
    <div className="mx-auto max-w-7xl">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Link to="/rooms" className="text-sm text-teal-700 hover:underline dark:text-teal-300">
          ← Rooms
        </Link>
        <h1 className="min-w-0 text-2xl font-semibold tracking-tight">{displayText(room.data?.name ?? roomId)}</h1>
        <span className="min-w-0 font-mono text-sm text-slate-500">{displayText(roomId)}</span>
        <ConnectionBadge />
        <PresenceAvatars where={`/rooms/${encodeURIComponent(roomId)}`} label="Operators in this room" />
        <Link
          to="/rooms/$roomId/audit"
          params={{ roomId }}
          className="text-sm text-teal-700 hover:underline dark:text-teal-300"
        >
          Audit log &amp; export
        </Link>
        <StoryLink kind="room" id={roomId} />
        {room.data ? <RetentionSetting roomId={roomId} retention={room.data.retention} canEdit={facilitator} /> : null}
        <ReviewModeSwitch
          roomId={roomId}
          review={review}
          disabled={!facilitator || !room.data}
          busy={moderation.isPending}
          me={session?.did ?? null}
          onSwitch={(mode) => moderation.mutate(mode)}
          onEnded={moderationChanged}
        />
      </div>
      <ReconnectingNote />
      {moderation.isError ? (
        <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
          {roomErrorInWords(moderation.error)}
        </p>
      ) : null}
      {!facilitator ? (
        <div className="mt-4">
          <Notice tone="info" title="You are observing">
            Observers see everything in the room; assigning tasks, granting or revoking the mic, speaking and reviewing
            are for facilitators.
          </Notice>
        </div>
      ) : null}
      {history === 'error' ? (
        <div className="mt-4">
          <Notice tone="error" title="The history did not load">
            {historyError} New messages still appear live.
          </Notice>
        </div>
      ) : null}

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          {review ? <ReviewQueue roomId={roomId} canFacilitate={facilitator} /> : null}
          {stage >= 1 ? (
            <PublicTimeline
              key={roomId}
              roomId={roomId}
              onInspect={setInspected}
              onReply={facilitator ? reply : undefined}
            />
          ) : (
            <TimelinePlaceholder />
          )}
          {withPanels ? (
            <>
              <SayBox roomId={roomId} did={did} disabled={!facilitator} draft={draft} />
              <RoomControlLog roomId={roomId} onInspect={setInspected} />
            </>
          ) : null}
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          {withPanels ? (
            <>
              <AgentsPanel roomId={roomId} />
              <GrantsPanel roomId={roomId} did={did} canFacilitate={facilitator} />
              <Suspense fallback={null}>
                <HealthPanel roomId={roomId} canFacilitate={facilitator} />
              </Suspense>
              <AssignTaskForm roomId={roomId} did={did} disabled={!facilitator} />
            </>
          ) : null}
        </div>
      </div>
      <InspectorDialog entry={inspected} onClose={() => setInspected(null)} />
    </div>
  );
}
