// "1,204 / 4,000" beside a field, red once over (decisions-web.md §26). The form disables its
// send button with `fitsLimit` from the same shared limits, so the two never disagree.
import { countChars, TEXT_LIMITS, type TextKind } from '@shared/contract/text-limits';

export function CharCounter({ kind, text, id }: { kind: TextKind; text: string; id?: string }) {
  const n = countChars(text);
  const max = TEXT_LIMITS[kind];
  const over = n > max;
  return (
    <span
      id={id}
      data-testid="char-counter"
      data-over={over ? 'true' : 'false'}
      aria-live={over ? 'polite' : 'off'}
      className={`text-xs tabular-nums ${over ? 'font-medium text-rose-700 dark:text-rose-300' : 'text-slate-500 dark:text-slate-400'}`}
    >
      {n.toLocaleString('en')} / {max.toLocaleString('en')}
      {over ? <span className="sr-only"> characters: too long, shorten it to send</span> : null}
    </span>
  );
}
