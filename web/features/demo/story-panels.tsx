// The three story views, each fed by the data its own screen already reads:
// a room's live timeline, GET /api/negotiations/{id}, GET /api/scheduling/threads/{id}.
import { useQuery } from '@tanstack/react-query';
import { Notice } from '@web/components/ui/notice';
import { directoryQuery } from '@web/lib/api/agora-agents';
import { negotiationQuery } from '@web/lib/api/negotiation-get';
import { schedulingThreadQuery } from '@web/lib/api/scheduling-thread';
import { openRoom } from '@web/lib/mqtt/room-connection';
import { useRoomLive } from '@web/lib/mqtt/room-store';
import { oacopAgents } from '@web/lib/oacop/oacop-directory';
import { browserTimeZone } from '@web/lib/oacop/zone-labels';
import { useSession } from '@web/lib/identity/use-session';
import { bookNames, useNames } from '@web/lib/names/use-names';
import { negotiationStory } from '@web/lib/story/negotiation-story';
import { roomStory } from '@web/lib/story/room-story';
import { schedulingStory } from '@web/lib/story/scheduling-story';
import { agoraStory } from '@web/lib/story/agora-story';
import { threadQuery } from '@web/lib/api/agora-thread';
import { useEffect, useMemo } from 'react';
import { StoryList } from './story-list';
import type { ReplayOptions } from './story-replay';

const problem = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Opens the room's live connection while shown (the room screen does the same). */
export function RoomStory({
  roomId,
  taskId,
  names,
  replay,
}: {
  roomId: string;
  taskId?: string | undefined;
  names?: Readonly<Record<string, string>>;
  replay?: ReplayOptions | undefined;
}) {
  useEffect(() => openRoom(roomId), [roomId]);
  const live = useRoomLive(roomId);
  const session = useSession();
  const lines = useMemo(
    () =>
      roomStory(live.timeline.entries, {
        ...(taskId ? { taskId } : {}),
        // The operator watching is "You"; the demo's own facilitator keeps its name (an agent).
        names: { ...names, ...(session ? { [session.did]: 'You' } : {}) },
      }),
    [live.timeline.entries, taskId, names, session],
  );
  if (live.history === 'error')
    return (
      <Notice tone="error" title="The room's history could not be read">
        {live.historyError}
      </Notice>
    );
  return (
    <StoryList
      lines={lines}
      label="Room story"
      replay={replay}
      empty={live.history === 'loading' ? 'Reading the room…' : 'Nothing has happened here yet.'}
    />
  );
}

export function NegotiationStory({
  id,
  names,
  replay,
}: {
  id: string;
  names?: Readonly<Record<string, string>> | undefined;
  replay?: ReplayOptions | undefined;
}) {
  const detail = useQuery({ ...negotiationQuery(id), refetchInterval: 1_000 });
  const session = useSession();
  // The same names as the live negotiation page (decisions-web.md §29).
  const { book } = useNames();
  const lines = useMemo(() => {
    const d = detail.data;
    if (!d) return [];
    const known = bookNames(book);
    return negotiationStory({
      parties: d.negotiation.parties,
      category: d.negotiation.category,
      history: d.history,
      logIndex: d.log?.index ?? d.negotiation.log_index,
      names: { ...known, ...names, ...(session ? { [session.did]: 'You' } : {}) },
    });
  }, [detail.data, names, session, book]);
  if (detail.isError)
    return (
      <Notice tone="error" title="This negotiation could not be read">
        {problem(detail.error)}
      </Notice>
    );
  return (
    <StoryList
      lines={lines}
      label="Negotiation story"
      replay={replay}
      empty={detail.isPending ? 'Reading the negotiation…' : 'Nothing has been offered yet.'}
    />
  );
}

export function SchedulingStory({ threadId, replay }: { threadId: string; replay?: ReplayOptions | undefined }) {
  const thread = useQuery(schedulingThreadQuery(threadId));
  const directory = useQuery(directoryQuery);
  const { book } = useNames();
  const lines = useMemo(() => {
    if (!thread.data) return [];
    const agents = oacopAgents(directory.data ?? []);
    const names = bookNames(book);
    const resources = new Set(agents.filter((a) => a.kind === 'resource').map((a) => a.did));
    return schedulingStory(thread.data, { names, resources, timeZone: browserTimeZone() });
  }, [thread.data, directory.data, book]);
  if (thread.isError)
    return (
      <Notice tone="error" title="This scheduling thread could not be read">
        {problem(thread.error)}
      </Notice>
    );
  return (
    <StoryList
      lines={lines}
      label="Scheduling story"
      replay={replay}
      empty={thread.isPending ? 'Reading the thread…' : 'Nobody has answered yet.'}
    />
  );
}

export function AgoraThreadStory({ threadId, replay }: { threadId: string; replay?: ReplayOptions | undefined }) {
  const detail = useQuery({ ...threadQuery(threadId), refetchInterval: 2_000 });
  const { book } = useNames();
  const lines = useMemo(() => {
    if (!detail.data) return [];
    return agoraStory(detail.data.events, { names: bookNames(book) });
  }, [detail.data, book]);
  if (detail.isError)
    return (
      <Notice tone="error" title="This thread could not be read">
        {problem(detail.error)}
      </Notice>
    );
  return (
    <StoryList
      lines={lines}
      label="Thread story"
      replay={replay}
      empty={detail.isPending ? 'Reading the thread…' : 'Nothing has been asked yet.'}
    />
  );
}
