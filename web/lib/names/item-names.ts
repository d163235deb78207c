// Things named by what they are about rather than by id (decisions-web.md §29): a task by its
// title or its goal's first words, a scheduling thread by its title. The id stays one click away
// (the Name component's panel). Pure, so tested alone.
import { shortId } from './name-book';

const FIRST_WORDS = 8;

/** The first `n` words of `text` on one line, with "…" when it goes on; undefined when empty. */
export function firstWords(text: string | null | undefined, n = FIRST_WORDS): string | undefined {
  const words = (text ?? '').split(/\s+/u).filter(Boolean);
  if (words.length === 0) return undefined;
  return words.length <= n ? words.join(' ') : `${words.slice(0, n).join(' ')}…`;
}

/** A task (OACoP §2.2 Task): its title, else its description's first words, else "Task <short id>". */
export function taskName(task: {
  readonly threadId: string;
  readonly object: { readonly title?: string; readonly description?: string };
}): string {
  return firstWords(task.object.title, 12) ?? firstWords(task.object.description) ?? `Task ${shortId(task.threadId)}`;
}

/** A scheduling thread: its title, else "Meeting <short id>". */
export function meetingName(thread: { readonly threadId: string; readonly title?: string | null }): string {
  return firstWords(thread.title, 12) ?? `Meeting ${shortId(thread.threadId)}`;
}
