// One instant on screen (decisions-web §30): a <time dateTime> showing the form the place asks
// for, relative where age matters and absolute (with date and zone) otherwise, and the other form
// in its title. The zone follows the time display preference: UTC, else the browser's own.
import { usePreferences } from '@web/lib/preferences';
import { useNow } from '@web/lib/use-now';
import { absolute, browserZone, relative, timeLeft } from '@web/lib/time-words';

export type WhenForm = 'absolute' | 'relative' | 'left';

/** The zone absolute times are shown in: UTC when the operator chose it, else the browser's. */
export function useDisplayZone(): string {
  const display = usePreferences((s) => s.timeDisplay);
  return display === 'utc' ? 'UTC' : browserZone();
}

export function When({
  at,
  form = 'absolute',
  prefix = '',
  className,
  testId,
}: {
  /** Epoch milliseconds, or an ISO string. */
  at: number | string;
  form?: WhenForm;
  /** Words before the time, inside the element ("until "). */
  prefix?: string;
  className?: string;
  testId?: string;
}) {
  const zone = useDisplayZone();
  // Absolute times only need "now" for the year; relative ones tick.
  const now = useNow(form === 'absolute' ? 60_000 : 5_000);
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return <span className={className}>{String(at)}</span>;
  const abs = absolute(ms, zone, now);
  const shown = form === 'absolute' ? abs : form === 'relative' ? relative(ms, now) : timeLeft(ms, now, zone);
  const other = form === 'absolute' ? relative(ms, now) : abs;
  return (
    <time dateTime={new Date(ms).toISOString()} title={other} className={className} data-testid={testId}>
      {prefix}
      {shown}
    </time>
  );
}
