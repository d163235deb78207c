// A value of any length that never widens the page and never takes over a list (decisions-web.md
// §25): it wraps anywhere, and past ~400 characters or 6 lines shows its start with a "Show all"
// toggle. Text only: what agents write is never rendered as HTML.
import { countChars } from '@shared/contract/text-limits';
import { collapse, COLLAPSE_CHARS, COLLAPSE_LINES } from '@web/lib/long-text';
import { useState } from 'react';

export interface LongTextProps {
  readonly text: string;
  readonly className?: string;
  /** Keeps line breaks and runs of spaces (messages, JSON); off for one-line labels. */
  readonly preserveLines?: boolean;
  readonly chars?: number;
  readonly lines?: number;
  /** The element wrapping it: a span inside a sentence, a div on its own. */
  readonly as?: 'span' | 'div';
  readonly testId?: string;
}

export function LongText({
  text,
  className = '',
  preserveLines = false,
  chars = COLLAPSE_CHARS,
  lines = COLLAPSE_LINES,
  as: Tag = 'span',
  testId,
}: LongTextProps) {
  const [open, setOpen] = useState(false);
  const { head, cut } = collapse(text, chars, lines);
  const wrap = `min-w-0 [overflow-wrap:anywhere] ${preserveLines ? 'whitespace-pre-wrap' : ''} ${className}`;
  if (!cut)
    return (
      <Tag className={wrap} data-testid={testId}>
        {text}
      </Tag>
    );
  return (
    <Tag className={wrap} data-testid={testId} data-collapsed={open ? 'false' : 'true'}>
      {open ? text : `${head}…`}{' '}
      <button
        type="button"
        aria-expanded={open}
        onClick={(e) => {
          // A row that opens on click (a timeline message) must not open as well.
          e.stopPropagation();
          setOpen(!open);
        }}
        className="inline rounded px-1 text-xs font-medium whitespace-nowrap text-teal-700 underline-offset-2 hover:underline dark:text-teal-300"
      >
        {open ? 'Show less' : `Show all (${countChars(text).toLocaleString('en')} characters)`}
      </button>
    </Tag>
  );
}
