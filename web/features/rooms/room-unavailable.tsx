// What a room's screens show when the room cannot be read: "No such room" at once for a 404 (a
// link to a room that never existed or a mistyped id), with the way back to the list.
import { Link } from '@tanstack/react-router';
import { Notice } from '@web/components/ui/notice';
import { isNotFound } from '@web/lib/api/http';
import { roomErrorInWords } from '@web/lib/room-words';

export function RoomUnavailable({ roomId, error }: { roomId: string; error: unknown }) {
  const missing = isNotFound(error);
  return (
    <div className="mx-auto max-w-xl">
      <Notice
        tone="error"
        title={missing ? 'No such room' : 'Cannot open this room'}
        action={
          <Link to="/rooms" className="text-sm font-medium text-teal-700 hover:underline dark:text-teal-300">
            All rooms
          </Link>
        }
      >
        <span className="break-words">
          {missing ? `There is no room “${roomId}”. It may have been mistyped.` : roomErrorInWords(error)}
        </span>
      </Notice>
    </div>
  );
}
