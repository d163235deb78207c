// Import someone's own calendar (.ics) to show their busy time on the heat-map. Parsed in this
// browser (shared/oacop busyFromICalendar, recurring events expanded in the window); nothing is
// sent anywhere. A file ical.js cannot read is OACOP_INVALID_ICAL, said in words.
import type { Slot } from '@shared/oacop/messages';
import { busyFromICalendar } from '@shared/oacop/busy-from-icalendar';
import { oacopErrorWords } from '@web/lib/oacop/oacop-words';
import { useId, useState, type ChangeEvent } from 'react';

export interface IcsImportProps {
  readonly window: Slot | undefined;
  readonly people: readonly { did: string; name: string }[];
  readonly onImport: (did: string, busy: readonly Slot[]) => void;
}

export function IcsImport({ window, people, onImport }: IcsImportProps) {
  const [whose, setWhose] = useState(people[0]?.did ?? 'me');
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const fileId = useId();
  if (!window) return null;
  const read = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const busy = busyFromICalendar(await file.text(), window);
    if (!busy.ok)
      return setMessage({
        error: true,
        text: `${busy.error.code}: ${oacopErrorWords(busy.error.code, busy.error.message)}`,
      });
    onImport(whose, busy.value);
    setMessage({
      error: false,
      text: `${busy.value.length} busy period${busy.value.length === 1 ? '' : 's'} in the window, shown on the heat-map.`,
    });
  };
  return (
    <div className="space-y-1 text-sm">
      <label className="block font-medium text-slate-700 dark:text-slate-300">
        Whose calendar
        <select
          aria-label="Whose calendar"
          value={whose}
          onChange={(e) => setWhose(e.target.value)}
          className="ml-2 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
        >
          {people.map((p) => (
            <option key={p.did} value={p.did}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={fileId} className="block font-medium text-slate-700 dark:text-slate-300">
        Import a calendar (.ics)
      </label>
      <input
        id={fileId}
        type="file"
        accept=".ics,text/calendar"
        onChange={(e) => void read(e)}
        className="block text-sm"
      />
      {message ? (
        <p
          role={message.error ? 'alert' : 'status'}
          data-testid="ics-import-result"
          className={message.error ? 'text-rose-700 dark:text-rose-300' : 'text-slate-600 dark:text-slate-400'}
        >
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
