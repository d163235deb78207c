// Replay controls for a story view: the stored story plays back in its own rhythm
// at 1×, 2×, 5× or 10× (web/lib/story/replay.ts), pausable and scrubbable. It only reveals lines
// the screen has already read: nothing is published, posted or changed.
import { Button } from '@web/components/ui/button';
import { advance, REPLAY_SPEEDS, replayOffsets, shownAt, type ReplaySpeed } from '@web/lib/story/replay';
import type { StoryLine } from '@web/lib/story/story-line';
import { useEffect, useMemo, useState } from 'react';

export interface ReplayOptions {
  readonly speed: ReplaySpeed;
  readonly onSpeed: (speed: ReplaySpeed) => void;
}

/** How often the replay clock ticks: smooth enough for a line a second at 10×. */
const TICK_MS = 100;

/** The lines on screen at the replay's position, and the controls that move it. */
export function useStoryReplay(lines: readonly StoryLine[], options: ReplayOptions | undefined) {
  const offsets = useMemo(() => replayOffsets(lines), [lines]);
  const total = offsets.at(-1) ?? 0;
  const [position, setPosition] = useState(0);
  const [playing, setPlaying] = useState(true);
  const speed = options?.speed ?? 1;
  const ended = lines.length > 0 && position >= total;

  useEffect(() => {
    if (!options || !playing || ended) return;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      setPosition((p) => advance(p, now - last, speed, total));
      last = now;
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [options, playing, ended, speed, total]);

  if (!options) return { shown: lines, controls: null };
  const shownCount = shownAt(offsets, position);
  // The slider moves in ticks; its end is rounded up so that it reaches the last line.
  const sliderMax = Math.max(Math.ceil(total / TICK_MS) * TICK_MS, TICK_MS);
  const controls = (
    <div
      data-testid="replay-controls"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <Button
        onClick={() => {
          if (ended) setPosition(0);
          setPlaying(ended ? true : !playing);
        }}
      >
        {ended ? 'Play again' : playing ? 'Pause' : 'Play'}
      </Button>
      <label className="flex items-center gap-2">
        Speed
        <select
          value={speed}
          onChange={(e) => options.onSpeed(Number(e.target.value) as ReplaySpeed)}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-950"
        >
          {REPLAY_SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
      <input
        type="range"
        aria-label="Replay position"
        min={0}
        max={sliderMax}
        step={TICK_MS}
        value={Math.min(position, sliderMax)}
        onChange={(e) => {
          setPlaying(false);
          setPosition(Number(e.target.value));
        }}
        className="min-w-40 flex-1"
      />
      <span data-testid="replay-progress" className="tabular-nums text-slate-600 dark:text-slate-400">
        {shownCount} of {lines.length} {lines.length === 1 ? 'step' : 'steps'}
      </span>
    </div>
  );
  return { shown: lines.slice(0, shownCount), controls };
}
