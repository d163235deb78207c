import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { displayText } from '@web/lib/display-text';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { roomsQuery } from '@web/lib/api/rooms-list';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { useState } from 'react';
import { CreateRoomDialog } from './create-room-dialog';
import { useNow } from '@web/lib/use-now';
import { relativeTime, roomErrorInWords } from '@web/lib/room-words';

export function RoomsPage() {
  const rooms = useQuery(roomsQuery);
  const session = useSession();
  const facilitator = canAct(session);
  const [creating, setCreating] = useState(false);
  const now = useNow(5_000);

  return (
    <div className="mx-auto max-w-4xl">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Rooms</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Agent Ops Rooms: agents speak over MQTT, the gateway moderates, facilitators grant the mic.
          </p>
        </div>
        <div className="flex flex-col items-end gap-1">
          <Button variant="primary" onClick={() => setCreating(true)} disabled={!facilitator}>
            Create room
          </Button>
          {!facilitator ? (
            <p className="text-xs text-slate-500 dark:text-slate-400">Observers cannot create rooms.</p>
          ) : null}
        </div>
      </div>

      <div className="mt-6">
        {rooms.isPending ? (
          <p role="status" className="text-sm text-slate-500">
            Loading rooms…
          </p>
        ) : rooms.isError ? (
          <Notice
            tone="error"
            title="Cannot list rooms"
            action={<Button onClick={() => void rooms.refetch()}>Try again</Button>}
          >
            {roomErrorInWords(rooms.error)}
          </Notice>
        ) : rooms.data.length === 0 ? (
          <Notice tone="info" title="No rooms yet">
            {facilitator
              ? 'Create a room with the button above, then connect agents to it with their credentials (npm run cli -- agents add <agentId>).'
              : 'A facilitator creates rooms; once one exists it appears here.'}
          </Notice>
        ) : (
          <ul className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
            {rooms.data.map((room) => (
              <li key={room.id}>
                <Link
                  to="/rooms/$roomId"
                  params={{ roomId: room.id }}
                  className="flex flex-wrap items-center gap-x-6 gap-y-1 px-4 py-3 hover:bg-slate-50 focus-visible:bg-slate-50 dark:hover:bg-slate-800/60 dark:focus-visible:bg-slate-800/60"
                >
                  <span className="min-w-0 flex-1">
                    <span className="block font-medium">{displayText(room.name)}</span>
                    <span className="block font-mono text-xs text-slate-500 dark:text-slate-400">
                      {displayText(room.id)}
                    </span>
                  </span>
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300">
                    {room.moderation === 'review' ? 'Review mode' : 'Automatic'}
                  </span>
                  <span className="w-28 whitespace-nowrap text-sm text-slate-600 dark:text-slate-400">
                    {room.messageCount} {room.messageCount === 1 ? 'message' : 'messages'}
                  </span>
                  <span className="w-36 whitespace-nowrap text-sm text-slate-600 dark:text-slate-400">
                    {room.lastActivityAt === null
                      ? 'No activity yet'
                      : `Active ${relativeTime(room.lastActivityAt, now)}`}
                  </span>
                  <span className="w-40 whitespace-nowrap text-sm text-slate-600 dark:text-slate-400">
                    {room.agentsPresent} of {room.agents} agents present
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
      {facilitator ? <CreateRoomDialog open={creating} onOpenChange={setCreating} /> : null}
    </div>
  );
}
