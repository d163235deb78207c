// A day (or a day and a time) typed as the console writes it, "28 Nov 2026, 14:30", never in the
// browser's US order (decisions-web.md §36). A text field: the parsed day is read back in words
// under it, and the form gets the same "YYYY-MM-DD" / "YYYY-MM-DDTHH:MM" value a native date input
// gives (or the raw text while it names no day, so the form's own check says what is wrong).
import { useState } from 'react';
import { dayInputText, parseDay, parseDayTime } from '@web/lib/day-input';
import { dayWords } from '@web/lib/time-words';
import { TextField } from './text-field';

export function DayField({
  label,
  value,
  onChange,
  withTime = false,
  error,
  onBlur,
}: {
  label: string;
  /** "YYYY-MM-DD" (with "THH:MM" when `withTime`), or whatever was typed that names no day. */
  value: string;
  onChange: (value: string) => void;
  withTime?: boolean;
  error?: string | undefined;
  onBlur?: () => void;
}) {
  const parse = withTime ? parseDayTime : parseDay;
  const [text, setText] = useState(() => dayInputText(value));
  const [seen, setSeen] = useState(value);
  // A value set from outside (a form reset, a counter's terms) replaces what is shown; adjusted
  // while rendering, as React advises for state derived from a prop.
  if (value !== seen) {
    setSeen(value);
    if (value !== (parse(text) ?? text.trim())) setText(dayInputText(value));
  }
  const parsed = parse(text);
  const example = withTime ? 'e.g. 28 Nov 2026, 14:30' : 'e.g. 28 Nov 2026';
  // Read back whole, the year always: a form's date is checked, not glanced at.
  const day = parsed?.slice(0, 10);
  const reads =
    parsed && day
      ? `${dayWords(Date.parse(`${day}T00:00:00Z`), 'UTC', Date.parse(`${day}T00:00:00Z`))} ${day.slice(0, 4)}${
          withTime ? `, ${parsed.slice(11, 16)} UTC` : ''
        }`
      : null;
  return (
    <TextField
      label={label}
      value={text}
      inputMode="text"
      autoComplete="off"
      spellCheck={false}
      placeholder={example.replace('e.g. ', '')}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parse(e.target.value) ?? e.target.value.trim());
      }}
      onBlur={onBlur}
      hint={reads ? <span data-testid="day-reads">{reads}</span> : `Day, month, year: ${example}`}
      error={error}
    />
  );
}
