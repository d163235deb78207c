// /story/$kind/$id: the plain-language story of any room, negotiation or scheduling thread,
// for a presenter; the full screen is one link away. `?replay=1&speed=5`
// plays it back from the stored history (decisions-web.md §13); the URL can be shared.
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { Button } from '@web/components/ui/button';
import type { ReplaySpeed } from '@web/lib/story/replay';
import { AgoraThreadStory, NegotiationStory, RoomStory, SchedulingStory } from './story-panels';

export function StoryPage() {
  const { kind, id } = useParams({ from: '/console/story/$kind/$id' });
  const search = useSearch({ from: '/console/story/$kind/$id' });
  const navigate = useNavigate({ from: '/story/$kind/$id' });
  const replay = search.replay
    ? {
        speed: search.speed ?? 1,
        onSpeed: (speed: ReplaySpeed) => void navigate({ search: (prev) => ({ ...prev, speed }), replace: true }),
      }
    : undefined;
  const heading =
    kind === 'room'
      ? 'Room story'
      : kind === 'negotiation'
        ? 'Negotiation story'
        : kind === 'scheduling'
          ? 'Scheduling story'
          : kind === 'thread'
            ? 'Thread story'
            : null;
  const linkClass = 'text-sm font-medium text-teal-700 underline-offset-2 hover:underline dark:text-teal-300';
  if (!heading) {
    return (
      <div role="alert" className="mx-auto max-w-xl">
        <h1 className="text-xl font-semibold">No such story</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          A story is told for a room, a negotiation, a scheduling thread or an Agora thread: /story/room/…,
          /story/negotiation/…, /story/scheduling/… or /story/thread/….
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{heading}</h1>
        {replay ? (
          <Link to="/story/$kind/$id" params={{ kind, id }} search={{}} className={linkClass}>
            Back to live
          </Link>
        ) : (
          <Button onClick={() => void navigate({ search: { replay: true, speed: 1 } })}>Replay from the start</Button>
        )}
      </div>
      {kind === 'room' ? (
        <>
          <RoomStory roomId={id} replay={replay} />
          <Link to="/rooms/$roomId" params={{ roomId: id }} className={linkClass}>
            Open the room
          </Link>
        </>
      ) : kind === 'negotiation' ? (
        <>
          <NegotiationStory id={id} replay={replay} />
          <Link to="/negotiations/$negotiationId" params={{ negotiationId: id }} className={linkClass}>
            Open the negotiation
          </Link>
        </>
      ) : kind === 'thread' ? (
        <>
          <AgoraThreadStory threadId={id} replay={replay} />
          <Link to="/threads/$threadId" params={{ threadId: id }} className={linkClass}>
            Open the thread
          </Link>
        </>
      ) : (
        <>
          <SchedulingStory threadId={id} replay={replay} />
          <Link to="/scheduling/$threadId" params={{ threadId: id }} className={linkClass}>
            Open the thread
          </Link>
        </>
      )}
    </div>
  );
}
