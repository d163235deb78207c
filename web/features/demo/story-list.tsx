// A story view: plain sentences, newest last, announced politely to screen readers. In presenter
// mode it follows live events: each new line scrolls into view (decisions-web.md §12).
// Sentences may quote agents; they are rendered as text, never HTML.
import type { StoryLine } from '@web/lib/story/story-line';
import { usePresenter } from '@web/lib/presenter';
import { useEffect, useRef } from 'react';
import { When } from '@web/components/when';
import { useStoryReplay, type ReplayOptions } from './story-replay';

const TONE: Record<StoryLine['tone'], string> = {
  step: 'border-slate-300 dark:border-slate-700',
  milestone: 'border-emerald-500 font-medium text-emerald-900 dark:border-emerald-400 dark:text-emerald-200',
  problem: 'border-amber-500 text-amber-950 dark:border-amber-400 dark:text-amber-100',
};

export function StoryList({
  lines: all,
  empty,
  label,
  replay,
}: {
  lines: readonly StoryLine[];
  empty: string;
  label: string;
  replay?: ReplayOptions | undefined;
}) {
  const presenter = usePresenter((s) => s.on);
  const { shown: lines, controls } = useStoryReplay(all, replay);
  const last = useRef<HTMLLIElement>(null);
  const lastKey = lines.at(-1)?.key;
  useEffect(() => {
    if (presenter && lastKey) last.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [presenter, lastKey]);

  if (all.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{empty}</p>;
  return (
    <>
      {controls}
      {/* A long story scrolls inside its box: focusable, so a keyboard scrolls it too (WCAG 2.1.1). */}
      <ol
        tabIndex={0}
        aria-label={label}
        aria-live="polite"
        data-testid="story"
        className="max-h-96 space-y-1.5 overflow-y-auto pr-1"
      >
        {lines.map((line, i) => (
          <li
            key={line.key}
            ref={i === lines.length - 1 ? last : undefined}
            data-tone={line.tone}
            className={`border-l-4 py-0.5 pl-3 ${TONE[line.tone]}`}
          >
            <span className="mr-2 font-mono text-xs text-slate-500 tabular-nums dark:text-slate-400">
              {line.at ? <When at={line.at} form="relative" /> : ''}
            </span>
            {line.text}
          </li>
        ))}
      </ol>
    </>
  );
}
