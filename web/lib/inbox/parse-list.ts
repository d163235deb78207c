// A whole inbox list checked against the contract without one long task: thousands of items are
// parsed a slice at a time, yielding to the browser between slices, so a large snapshot never
// blocks input or a live update for more than a few milliseconds at a stretch (the bench's aim:
// no task over 50 ms, docs/benchmarks.md "UI benchmark: the inbox").
import { z } from 'zod';
import { InboxItem, InboxList } from '@shared/contract/inbox';

/** Items per slice: well under 50 ms of checking on a slow machine. */
export const SLICE = 500;

/** The list's frame with its items unchecked: they are checked slice by slice after. */
const Frame = InboxList.extend({ items: z.array(z.unknown()) });

const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The list as the contract says, or undefined when anything in it does not fit (the caller keeps
 * what it held, as for any answer it does not understand). `pause` is how it yields between slices.
 */
export async function parseInboxList(
  raw: unknown,
  pause: () => Promise<void> = yieldToBrowser,
): Promise<InboxList | undefined> {
  const frame = Frame.safeParse(raw);
  if (!frame.success) return undefined;
  const items: InboxItem[] = [];
  const all = frame.data.items;
  for (let start = 0; start < all.length; start += SLICE) {
    if (start > 0) await pause();
    for (const candidate of all.slice(start, start + SLICE)) {
      const item = InboxItem.safeParse(candidate);
      if (!item.success) return undefined;
      items.push(item.data);
    }
  }
  return { ...frame.data, items };
}
