// The availability heat-map: rows = participants, columns = steps across the window; a time axis
// per zone (the operator's first), so each person's local time reads side by side with the others.
// On a phone it shows one local day at a time, its columns sharing the width, with the days to step
// through (decisions-web.md §31).
import { useEffect, useMemo, useState } from 'react';
import type { Slot } from '@shared/oacop/messages';
import { displayText } from '@web/lib/display-text';
import { localDateTime, localHour, localTime, zoneCity } from '@web/lib/oacop/zone-labels';
import { dayRanges, inSlot, type HeatMapGrid } from './heat-map-grid';

const PHONE = '(max-width: 639px)';

function usePhone(): boolean {
  const [phone, setPhone] = useState(() => matchMedia(PHONE).matches);
  useEffect(() => {
    const media = matchMedia(PHONE);
    const update = () => setPhone(media.matches);
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
  return phone;
}

export interface HeatMapProps {
  readonly grid: HeatMapGrid;
  readonly names: Readonly<Record<string, string>>;
  readonly zones: Readonly<Record<string, string>>;
  readonly operatorZone: string;
  readonly highlight?: Slot | null | undefined;
}

const CELL: Record<string, string> = {
  free: 'bg-emerald-500/80 dark:bg-emerald-500/70',
  busy: 'bg-slate-200 dark:bg-slate-800',
  unknown: 'bg-[repeating-linear-gradient(45deg,transparent_0_3px,rgba(100,116,139,.25)_3px_5px)]',
  declined: 'bg-rose-200 dark:bg-rose-900/60',
};
const WORD: Record<string, string> = {
  free: 'free',
  busy: 'not offered',
  unknown: 'no answer yet',
  declined: 'declined',
};

export function HeatMap({ grid, names, zones, operatorZone, highlight }: HeatMapProps) {
  const axisZones = [operatorZone, ...new Set(Object.values(zones).filter((z) => z !== operatorZone))];
  // Label every column whose local time is on the hour and a multiple of the label spacing.
  const phone = usePhone();
  // A phone's columns are a few pixels wide: a label every six hours, and the day named above.
  const every = Math.max(1, Math.round((phone ? 360 : 180) / grid.stepMinutes));
  const days = useMemo(
    () => dayRanges(grid.columns, (at) => localDateTime(at, operatorZone).split(',')[0]!),
    [grid.columns, operatorZone],
  );
  // The day of the highlighted slot, else the first day with a free cell, else the first.
  const firstDay = useMemo(() => {
    const at = (i: number) => days.findIndex((d) => i >= d.from && i < d.to);
    const lit = grid.columns.findIndex((c) => inSlot(c, highlight));
    if (lit >= 0) return at(lit);
    const free = grid.columns.findIndex((_, i) => grid.rows.some((r) => r.cells[i]?.state === 'free'));
    return Math.max(0, at(free));
  }, [days, grid, highlight]);
  const [picked, setPicked] = useState<number | null>(null);
  const dayIndex = Math.min(picked ?? firstDay, Math.max(0, days.length - 1));
  const shown = phone && days.length > 0 ? days[dayIndex]! : { from: 0, to: grid.columns.length };
  const columns = grid.columns.slice(shown.from, shown.to);
  return (
    // Two working days of columns can be wider than the page: focusable, so a keyboard scrolls it too (WCAG 2.1.1).
    <div
      tabIndex={0}
      role="region"
      aria-label="Availability heat-map"
      className="overflow-x-auto rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
      data-testid="heat-map"
    >
      {phone && days.length > 1 ? (
        <div className="mb-2 flex items-center justify-between gap-2 text-sm" data-testid="heat-map-day">
          <button
            type="button"
            className="rounded px-2 py-1 text-teal-700 disabled:text-slate-400 dark:text-teal-300"
            disabled={dayIndex === 0}
            onClick={() => setPicked(dayIndex - 1)}
            aria-label="Previous day"
          >
            ‹
          </button>
          <span className="font-medium" aria-live="polite">
            {days[dayIndex]!.label} ({zoneCity(operatorZone)}) · day {dayIndex + 1} of {days.length}
          </span>
          <button
            type="button"
            className="rounded px-2 py-1 text-teal-700 disabled:text-slate-400 dark:text-teal-300"
            disabled={dayIndex === days.length - 1}
            onClick={() => setPicked(dayIndex + 1)}
            aria-label="Next day"
          >
            ›
          </button>
        </div>
      ) : null}
      <table className={`border-separate border-spacing-0 text-xs ${phone ? 'w-full table-fixed' : ''}`}>
        <caption className="sr-only">
          Availability across the window, one row per participant; column times in each zone above.
        </caption>
        <thead>
          {axisZones.map((zone, zi) => (
            <tr key={zone} data-testid="heat-map-axis">
              <th
                scope="row"
                className={`sticky left-0 z-10 bg-white pr-3 text-left font-medium text-slate-500 dark:bg-slate-900 dark:text-slate-400 ${phone ? 'w-28 break-words' : 'whitespace-nowrap'}`}
              >
                {zi === 0 ? `Your time (${zoneCity(zone)})` : zoneCity(zone)}
              </th>
              {columns.map((c, j) => {
                const i = shown.from + j;
                return (
                  <th
                    key={c.start}
                    scope="col"
                    className={`h-5 px-0 text-left align-bottom font-normal whitespace-nowrap text-slate-500 tabular-nums dark:text-slate-400 ${phone ? '' : 'w-4 min-w-4'}`}
                  >
                    {i % every === 0 ? (
                      <span className="inline-block w-0 overflow-visible">
                        {localHour(c.start, zone) === 0 && zi === 0 && !phone
                          ? localDateTime(c.start, zone).split(',')[0]
                          : localTime(c.start, zone)}
                      </span>
                    ) : null}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {grid.rows.map((row) => (
            <tr key={row.did} data-testid="heat-map-row" data-did={row.did}>
              <th
                scope="row"
                className={`sticky left-0 z-10 bg-white py-0.5 pr-3 text-left font-medium dark:bg-slate-900 ${phone ? 'w-28 break-words' : 'whitespace-nowrap'}`}
              >
                {displayText(names[row.did] ?? row.did)}
                {zones[row.did] ? (
                  <span className={`font-normal text-slate-500 dark:text-slate-400 ${phone ? 'block' : 'ml-1'}`}>
                    {zoneCity(zones[row.did]!)}
                  </span>
                ) : null}
              </th>
              {row.cells.slice(shown.from, shown.to).map((cell, j) => {
                const i = shown.from + j;
                const c = grid.columns[i]!;
                const zone = zones[row.did] ?? operatorZone;
                const lit = inSlot(c, highlight);
                return (
                  <td
                    key={c.start}
                    title={`${names[row.did] ?? ''}: ${localDateTime(c.start, zone)} local, ${WORD[cell.state]}${cell.importedBusy ? ', busy in the imported calendar' : ''}`}
                    data-state={cell.state}
                    data-suggested={lit ? 'true' : undefined}
                    data-imported-busy={cell.importedBusy ? 'true' : undefined}
                    className={`h-6 border-y border-white p-0 ${phone ? '' : 'w-4 min-w-4'} dark:border-slate-900 ${CELL[cell.state]} ${lit ? 'ring-2 ring-teal-600 ring-inset dark:ring-teal-300' : ''} ${i % every === 0 ? 'border-l border-l-slate-300 dark:border-l-slate-700' : ''}`}
                  >
                    {cell.importedBusy ? (
                      <span
                        aria-hidden
                        className="block h-full w-full bg-[repeating-linear-gradient(-45deg,transparent_0_2px,rgba(225,29,72,.6)_2px_4px)]"
                      />
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 flex flex-wrap gap-4 text-xs text-slate-500 dark:text-slate-400">
        <span>
          <span className={`mr-1 inline-block size-3 align-middle ${CELL.free}`} />
          free
        </span>
        <span>
          <span className={`mr-1 inline-block size-3 align-middle ${CELL.busy}`} />
          not offered
        </span>
        <span>
          <span className={`mr-1 inline-block size-3 align-middle ${CELL.unknown}`} />
          no answer yet
        </span>
        <span>
          <span className="mr-1 inline-block size-3 bg-[repeating-linear-gradient(-45deg,transparent_0_2px,rgba(225,29,72,.6)_2px_4px)] align-middle" />
          busy in an imported calendar
        </span>
        <span>
          <span className="mr-1 inline-block size-3 align-middle ring-2 ring-teal-600 ring-inset" />
          suggested or confirmed slot
        </span>
        <span>Columns of {grid.stepMinutes} minutes.</span>
      </p>
    </div>
  );
}
