// The link from a live screen to its plain-language story and replay (/story/$kind/$id): every
// room, negotiation, scheduling thread and Agora thread has one.
import { Link } from '@tanstack/react-router';

export function StoryLink({ kind, id }: { kind: 'room' | 'negotiation' | 'scheduling' | 'thread'; id: string }) {
  return (
    <Link
      to="/story/$kind/$id"
      params={{ kind, id }}
      className="text-sm font-medium text-teal-700 hover:underline dark:text-teal-300"
      title="What happened, in words, and a replay from the start"
    >
      Story &amp; replay
    </Link>
  );
}
