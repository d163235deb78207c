// Replaying a story from stored history: the lines come back in the rhythm they
// happened, at a chosen speed, pausable and scrubbable, without touching live state (the story is
// built from what the screens already read; nothing is published or posted). Pure: the clock is
// the caller's.
import type { StoryLine } from './story-line';

/** A quiet stretch longer than this plays as this long: a replay should not sit idle for minutes. */
export const MAX_REPLAY_GAP_MS = 4_000;

export const REPLAY_SPEEDS = [1, 2, 5, 10] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/**
 * When each line appears, in ms of replay time from the start: the story's own gaps, each capped
 * at `maxGapMs`, in line order; a line dated before one already shown appears with it, and the
 * gap after it counts from the latest time shown.
 */
export function replayOffsets(lines: readonly Pick<StoryLine, 'at'>[], maxGapMs = MAX_REPLAY_GAP_MS): number[] {
  const offsets: number[] = [];
  let offset = 0;
  let latest = -Infinity;
  for (const [i, line] of lines.entries()) {
    if (i > 0) offset += Math.min(Math.max(line.at - latest, 0), maxGapMs);
    latest = Math.max(latest, line.at);
    offsets.push(offset);
  }
  return offsets;
}

/** How many lines are on screen at replay time `position` (ms): those whose offset has come. */
export function shownAt(offsets: readonly number[], position: number): number {
  let n = 0;
  while (n < offsets.length && offsets[n]! <= position) n++;
  return n;
}

/** The replay time after `elapsedMs` of wall time at `speed`, never past the end. */
export function advance(position: number, elapsedMs: number, speed: number, total: number): number {
  return Math.min(total, position + Math.max(0, elapsedMs) * speed);
}

/** Reads `?speed=` from a URL: one of the offered speeds, else 1×. */
export function parseSpeed(value: unknown): ReplaySpeed {
  const n = Number(value);
  return (REPLAY_SPEEDS as readonly number[]).includes(n) ? (n as ReplaySpeed) : 1;
}

/** The story page's search: `replay=1` plays it back, `speed` is one of the offered speeds. */
export function parseStorySearch(search: Record<string, unknown>): { replay?: true; speed?: ReplaySpeed } {
  const replay = search.replay === true || search.replay === 1 || search.replay === '1';
  return {
    ...(replay ? { replay: true as const } : {}),
    ...(replay && search.speed !== undefined ? { speed: parseSpeed(search.speed) } : {}),
  };
}
