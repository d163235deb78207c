// "12 seconds ago" for presence and thread lists: the one time formatter's relative form
// (decisions-web §30); times are UTC inside, words only at the edge.
import { relative } from '@web/lib/time-words';

export const relativeTime = (at: number, now: number): string => relative(Math.min(at, now), now);
