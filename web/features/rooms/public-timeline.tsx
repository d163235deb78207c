// The room timeline: approved messages (and, when asked, control messages) in server order.
//
// - Virtualized (@tanstack/react-virtual): only the rows in view are in the DOM, so a room with
//   100,000 stored messages opens and scrolls without long tasks. Older history is paged in as
//   the reader scrolls up; the virtualizer keeps the row under the reader where it was.
// - Live tail with pause: pausing freezes what is shown while messages keep arriving into the
//   store; "N new" counts them and "Jump to live" shows them all (live-tail.ts).
// - Filters in the URL (timeline-filter.ts) apply to history and to later arrivals alike.
// - `?m=<cursor>` opens the room on that message, highlighted.
// New live messages are announced in a polite live region, a burst per sentence ("3 new messages
// from agent.x", announce.ts); rows keep stable keys so focus stays put while the list grows.
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { jumpToLive, loadNewer, loadOlder, openAt } from '@web/lib/mqtt/room-connection';
import { useRoomLive } from '@web/lib/mqtt/room-store';
import type { TimelineEntry } from '@web/lib/mqtt/timeline-merge';
import { usePreferences } from '@web/lib/preferences';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { pauseAt, splitAtPause, type PausePoint } from './live-tail';
import { plainText, summarize } from './message-content';
import { formatTime } from './time-display';
import { filterTimeline, isFiltered, timelineFilter, type TimelineSearch } from './timeline-filter';
import { senderLabel, TimelineRow } from './timeline-row';
import { TimeDisplayControl, TimelineFilters } from './timeline-toolbar';
import type { Arrival } from './announce';
import { useAnnouncer } from './use-announcer';
import { useNow } from '@web/lib/use-now';

/** Within this many pixels of an edge, the next page loads. */
const EDGE_PX = 400;

export function PublicTimeline({
  roomId,
  onInspect,
  onReply,
}: {
  roomId: string;
  onInspect: (entry: TimelineEntry) => void;
  onReply?: ((agentId: string) => void) | undefined;
}) {
  const live = useRoomLive(roomId);
  const search = useSearch({ from: '/console/rooms/$roomId' });
  const navigate = useNavigate({ from: '/rooms/$roomId' });
  // Stable, so the memoized filters do not re-render with every scroll or live burst.
  const setSearch = useCallback(
    (patch: Partial<TimelineSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const display = usePreferences((s) => s.timeDisplay);
  const now = useNow(display === 'relative' ? 5_000 : 60_000);

  const { agent, type, q, topic, m } = search;
  const filter = useMemo(() => timelineFilter({ agent, type, q, topic }), [agent, type, q, topic]);
  const { timeline } = live;
  const filtered = useMemo(() => filterTimeline(timeline, filter), [timeline, filter]);
  const [pause, setPause] = useState<PausePoint | null>(null);
  const { visible, pending } = useMemo(() => splitAtPause(timeline, filtered, pause), [timeline, filtered, pause]);
  // The same list (by value) keeps the same array, so the filters skip re-rendering.
  const lastAgents = useRef<readonly string[]>([]);
  const agents = useMemo(() => {
    const seen = new Set<string>();
    for (let i = timeline.entries.length - 1; i >= Math.max(0, timeline.entries.length - 2_000); i--) {
      const from = timeline.entries[i]!.fromId;
      if (from && !from.startsWith('did:')) seen.add(from);
    }
    const next = [...seen].sort();
    const same = next.length === lastAgents.current.length && next.every((a, i) => a === lastAgents.current[i]);
    return same ? lastAgents.current : next;
  }, [timeline.entries]);
  useEffect(() => {
    lastAgents.current = agents;
  }, [agents]);

  const scroller = useRef<HTMLDivElement>(null);
  // The build runs no React Compiler, so the virtualizer's unmemoizable functions are fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 64,
    overscan: 6,
    getItemKey: (i) => visible[i]!.key,
    // Older pages go in above without moving what the reader looks at; new messages are
    // followed only when the reader is at the bottom and the tail is live.
    anchorTo: 'end',
    followOnAppend: pause === null && !live.detached,
  });

  // The permalink: load the page around it (unless held), then scroll to it once.
  const scrolledTo = useRef<number | null>(null);
  const ready = live.history === 'ready';
  useEffect(() => {
    if (m !== undefined && ready) void openAt(roomId, m).catch(() => undefined);
  }, [roomId, m, ready]);
  const target = m === undefined ? -1 : visible.findIndex((e) => e.cursor === m);
  useEffect(() => {
    if (m === undefined || target < 0 || scrolledTo.current === m) return;
    scrolledTo.current = m;
    virtualizer.scrollToIndex(target, { align: 'center' });
  }, [m, target, virtualizer]);

  // First open without a permalink: start at the newest message.
  const started = useRef(false);
  useLayoutEffect(() => {
    if (started.current || !ready || visible.length === 0 || m !== undefined) return;
    started.current = true;
    virtualizer.scrollToIndex(visible.length - 1, { align: 'end' });
  }, [visible.length, m, ready, virtualizer]);

  const { announcement, add: announce } = useAnnouncer();
  const lastAnnounced = useRef<{ key: string | null; filter: typeof filter } | null>(null);
  // Keys already read out: a backfill may reorder the newest entries, and none is read twice.
  const announced = useRef(new Set<string>());
  useEffect(() => {
    const newest = filtered.at(-1);
    const before = lastAnnounced.current;
    lastAnnounced.current = { key: newest?.key ?? null, filter };
    // What was there on open, history, and what a new filter reveals are not news; only what
    // arrives live after the last look is read out, a burst at a time (announce.ts).
    if (!newest || !before || before.filter !== filter || newest.key === before.key) return;
    const arrivals: Arrival[] = [];
    for (let i = filtered.length - 1; i >= 0 && i >= filtered.length - 500; i--) {
      const e = filtered[i]!;
      if (e.key === before.key) break;
      if (e.source !== 'live' || announced.current.has(e.key)) continue;
      announced.current.add(e.key);
      arrivals.unshift({
        from: senderLabel(e.fromId),
        type: summarize(e.envelope).messageType,
        text: plainText(e.envelope),
      });
    }
    if (announced.current.size > 5_000) announced.current = new Set([...announced.current].slice(-1_000));
    announce(arrivals);
  }, [filtered, filter, announce]);

  // "Jump to live": once the list shows everything (and, if it was detached, the newest page
  // has come back), land on the newest message.
  const jumpPending = useRef(false);
  const resume = () => {
    setPause(null);
    if (m !== undefined) setSearch({ m: undefined });
    if (live.detached) void jumpToLive(roomId);
    jumpPending.current = true;
  };
  useLayoutEffect(() => {
    if (!jumpPending.current || pause !== null || live.detached || !ready || visible.length === 0) return;
    jumpPending.current = false;
    virtualizer.scrollToIndex(visible.length - 1, { align: 'end' });
  }, [visible.length, pause, live.detached, ready, virtualizer]);

  // A new filter while following live: stay at the live edge rather than wherever the old list was.
  const lastFilter = useRef(filter);
  useLayoutEffect(() => {
    if (lastFilter.current === filter) return;
    lastFilter.current = filter;
    if (pause === null && !live.detached && visible.length > 0)
      virtualizer.scrollToIndex(visible.length - 1, { align: 'end' });
  }, [filter, pause, live.detached, visible.length, virtualizer]);

  const togglePause = () => (pause ? resume() : setPause(pauseAt(timeline)));

  const onScroll = (el: HTMLDivElement) => {
    if (el.scrollTop < EDGE_PX && live.hasOlder && live.older !== 'loading') void loadOlder(roomId);
    if (live.detached && el.scrollHeight - el.scrollTop - el.clientHeight < EDGE_PX && live.newer !== 'loading')
      void loadNewer(roomId);
  };

  const heading = topic === 'control' ? 'Control timeline' : topic === 'all' ? 'Timeline' : 'Public timeline';
  const waiting = live.detached ? live.detachedLive.length : pending;

  return (
    <section
      aria-labelledby="timeline-heading"
      className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <h2 id="timeline-heading" className="text-sm font-semibold">
          {heading}{' '}
          <span className="font-normal text-slate-500" data-testid="timeline-count">
            ({filtered.length})
          </span>
        </h2>
        <button
          type="button"
          onClick={togglePause}
          aria-pressed={pause !== null}
          aria-keyshortcuts="Space"
          className="rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {pause ? 'Resume' : 'Pause'}
        </button>
        {pause || live.detached ? (
          <span className="text-xs text-amber-700 dark:text-amber-300" data-testid="tail-state">
            {live.detached ? 'Viewing history' : 'Paused'}
          </span>
        ) : (
          <span className="text-xs text-emerald-700 dark:text-emerald-300" data-testid="tail-state">
            Following live
          </span>
        )}
        <span className="ml-auto">
          <TimeDisplayControl />
        </span>
      </div>
      <div className="border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <TimelineFilters search={search} agents={agents} onChange={setSearch} />
      </div>
      <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="timeline-announcer">
        {announcement}
      </p>
      <div className="relative">
        {(pause || live.detached) && (waiting > 0 || live.detached) ? (
          <div className="absolute inset-x-0 bottom-3 z-10 flex justify-center">
            <button
              type="button"
              onClick={resume}
              data-testid="jump-to-live"
              className="rounded-full bg-teal-700 px-3 py-1 text-xs font-medium text-white shadow-lg hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2"
            >
              <span data-testid="new-count">{waiting} new</span> · Jump to live
            </button>
          </div>
        ) : null}
        <div
          ref={scroller}
          tabIndex={0}
          role="region"
          aria-label={`${heading}: Space pauses or resumes`}
          data-testid="timeline-scroller"
          onScroll={(e) => onScroll(e.currentTarget)}
          onKeyDown={(e) => {
            if (e.key === ' ' && e.target === e.currentTarget) {
              e.preventDefault();
              togglePause();
            }
          }}
          className="h-[28rem] overflow-y-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-teal-600"
        >
          <p className="px-4 py-1 text-center text-xs text-slate-500 dark:text-slate-400" data-testid="older-state">
            {live.older === 'loading' ? (
              'Loading older messages…'
            ) : live.older === 'error' ? (
              <button type="button" className="underline" onClick={() => void loadOlder(roomId)}>
                Older messages did not load. Try again
              </button>
            ) : live.hasOlder ? (
              <button type="button" className="underline" onClick={() => void loadOlder(roomId)}>
                Load older messages
              </button>
            ) : ready ? (
              'The beginning of this room'
            ) : null}
          </p>
          {visible.length === 0 ? (
            <p className="px-4 py-6 text-sm text-slate-500 dark:text-slate-400">
              {filtered.length > 0
                ? 'Paused before anything matched. Jump to live to see what arrived.'
                : timeline.entries.length > 0 && isFiltered(search)
                  ? 'Nothing here matches the filters.'
                  : 'Nothing public yet. Assign a task with a mic grant; what the agent is allowed to say appears here.'}
            </p>
          ) : (
            <ol aria-label="Public messages" className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((item) => {
                const entry = visible[item.index]!;
                const highlighted = m !== undefined && entry.cursor === m;
                return (
                  <li
                    key={item.key}
                    ref={virtualizer.measureElement}
                    data-index={item.index}
                    data-testid="public-message"
                    data-message-id={entry.messageId ?? undefined}
                    data-cursor={entry.cursor ?? undefined}
                    aria-current={highlighted ? 'true' : undefined}
                    aria-posinset={item.index + 1}
                    aria-setsize={visible.length}
                    className={`absolute top-0 left-0 w-full border-b border-slate-100 px-4 py-2 dark:border-slate-800 ${highlighted ? 'bg-amber-50 ring-2 ring-amber-400 ring-inset dark:bg-amber-950/40' : ''}`}
                    style={{ transform: `translateY(${item.start}px)` }}
                  >
                    <TimelineRow
                      roomId={roomId}
                      entry={entry}
                      time={formatTime(entry.receivedAt, display, now)}
                      onInspect={onInspect}
                      onReply={onReply}
                    />
                  </li>
                );
              })}
            </ol>
          )}
          {live.detached ? (
            <p className="px-4 py-2 text-center text-xs text-slate-500 dark:text-slate-400">
              {live.newer === 'loading' ? (
                'Loading newer messages…'
              ) : (
                <button type="button" className="underline" onClick={() => void loadNewer(roomId)}>
                  Load newer messages
                </button>
              )}
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}

/** Holds the timeline's place for the commit before it mounts (room-page.tsx stages the page). */
export function TimelinePlaceholder() {
  return (
    <section
      aria-label="Public timeline"
      aria-busy="true"
      className="min-h-[34rem] rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    />
  );
}
