// The timeline's controls: pause / jump to live, filters (agent, type, topic, text) that live in
// the URL, and how times are shown (remembered in preferences).
import { MESSAGE_TYPES } from '@shared/aor/payloads';
import { usePreferences, type TimeDisplay } from '@web/lib/preferences';
import { memo, useId } from 'react';
import { isFiltered, type TimelineSearch, type TimelineTopic } from './timeline-filter';

const TIME_LABELS: Record<TimeDisplay, string> = { utc: 'UTC', local: 'Local', relative: 'Relative' };
const TYPES = [...MESSAGE_TYPES, 'say', 'mic_grant', 'mic_revoke', 'reject'];
const input = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950';

export const TimeDisplayControl = memo(function TimeDisplayControl() {
  const display = usePreferences((s) => s.timeDisplay);
  const setDisplay = usePreferences((s) => s.setTimeDisplay);
  return (
    <fieldset className="flex items-center gap-1 text-xs">
      <legend className="sr-only">Show times as</legend>
      <span className="text-slate-500 dark:text-slate-400" aria-hidden="true">
        Times
      </span>
      <span className="inline-flex overflow-hidden rounded-md border border-slate-300 dark:border-slate-700">
        {(Object.keys(TIME_LABELS) as TimeDisplay[]).map((d) => (
          <button
            key={d}
            type="button"
            aria-pressed={display === d}
            onClick={() => setDisplay(d)}
            className={`px-2 py-1 ${display === d ? 'bg-teal-700 text-white' : 'hover:bg-slate-100 dark:hover:bg-slate-800'}`}
          >
            {TIME_LABELS[d]}
          </button>
        ))}
      </span>
    </fieldset>
  );
});

// Memoized with the timeline's stable onChange: they re-render when the filters or agents change.
export const TimelineFilters = memo(function TimelineFilters({
  search,
  agents,
  onChange,
}: {
  search: TimelineSearch;
  agents: readonly string[];
  onChange: (patch: Partial<TimelineSearch>) => void;
}) {
  const id = useId();
  return (
    <div role="search" aria-label="Filter the timeline" className="flex flex-wrap items-end gap-2 text-sm">
      <label className="flex flex-col gap-0.5 text-xs text-slate-600 dark:text-slate-400">
        Agent
        <input
          aria-label="Filter by agent"
          className={`${input} w-36`}
          list={`${id}-agents`}
          value={search.agent ?? ''}
          onChange={(e) => onChange({ agent: e.target.value || undefined })}
          placeholder="any"
          autoComplete="off"
        />
        <datalist id={`${id}-agents`}>
          {agents.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
      </label>
      <label className="flex flex-col gap-0.5 text-xs text-slate-600 dark:text-slate-400">
        Type
        <input
          aria-label="Filter by type"
          className={`${input} w-28`}
          list={`${id}-types`}
          value={search.type ?? ''}
          onChange={(e) => onChange({ type: e.target.value || undefined })}
          placeholder="any"
          autoComplete="off"
        />
        <datalist id={`${id}-types`}>
          {TYPES.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
      </label>
      <label className="flex flex-col gap-0.5 text-xs text-slate-600 dark:text-slate-400">
        Topic
        <select
          aria-label="Filter by topic"
          className={input}
          value={search.topic ?? 'public'}
          onChange={(e) =>
            onChange({ topic: e.target.value === 'public' ? undefined : (e.target.value as TimelineTopic) })
          }
        >
          <option value="public">public</option>
          <option value="control">control</option>
          <option value="all">public + control</option>
        </select>
      </label>
      <label className="flex min-w-40 flex-1 flex-col gap-0.5 text-xs text-slate-600 dark:text-slate-400">
        Text
        <input
          aria-label="Filter by text"
          className={input}
          type="search"
          value={search.q ?? ''}
          onChange={(e) => onChange({ q: e.target.value || undefined })}
          placeholder="words in the message"
        />
      </label>
      {isFiltered(search) ? (
        <button
          type="button"
          onClick={() => onChange({ agent: undefined, type: undefined, q: undefined, topic: undefined })}
          className="rounded px-2 py-1 text-xs text-teal-700 hover:bg-slate-100 dark:text-teal-300 dark:hover:bg-slate-800"
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
});
