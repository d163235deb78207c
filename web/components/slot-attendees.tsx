// Who a slot is for and when it falls for each of them (decisions-web.md §45): every attendee by
// name (the id one click away), the slot's time in their own zone, or that their zone is unknown;
// a required attendee missing from a slot, or an optional one not free, is said so.
import { Name } from '@web/components/name';
import type { SlotAttendee } from '@web/lib/oacop/slot-words';

export function SlotAttendees({
  attendees,
  className = '',
}: {
  attendees: readonly SlotAttendee[];
  className?: string;
}) {
  return (
    <ul
      className={`space-y-0.5 text-xs text-slate-700 dark:text-slate-300 ${className}`}
      aria-label="Each attendee’s time"
    >
      {attendees.map((a) => (
        <li
          key={a.did}
          className="flex flex-wrap items-baseline gap-x-2"
          data-testid="slot-attendee"
          data-did={a.did}
          data-zone={a.zone ?? ''}
        >
          <span className="font-medium">
            <Name id={a.did} />
          </span>
          {a.required ? null : <span className="text-slate-500 dark:text-slate-400">optional</span>}
          <span
            className={a.zone === null ? 'italic text-slate-500 dark:text-slate-400' : ''}
            data-testid="slot-attendee-time"
          >
            {a.when}
          </span>
          {a.free ? null : (
            <span className={a.required ? 'text-rose-700 dark:text-rose-300' : 'text-slate-500 dark:text-slate-400'}>
              {a.required ? 'missing' : 'not free'}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
