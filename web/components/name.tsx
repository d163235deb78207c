// A DID or other identifier as people read it (decisions-web.md §29): the name the naming service
// knows, else the short id; one click shows the full id with a copy button. Names and ids are
// written by others, so both are rendered as text only, with bidi controls made visible.
import { useEffect, useId, useRef, useState } from 'react';
import { CopyButton } from '@web/components/ui/copy-button';
import { displayText } from '@web/lib/display-text';
import { useName } from '@web/lib/names/use-names';

export function Name({
  id,
  label,
  fallback,
  me,
  plain = false,
  className = '',
}: {
  id: string;
  /** A name the screen already has for this id (a thread's title, a task's goal), used over the book's. */
  label?: string | undefined;
  /** Shown when nothing names `id`, instead of its short id: "Operator …K7Qm2x" (decisions-web.md §46). */
  fallback?: string | undefined;
  /** Adds a small "you" mark when `id` is the operator's own (the book already says "You" otherwise). */
  me?: string | undefined;
  /** Inside a link or button: text with the full id as its hover title (no button in a button). */
  plain?: boolean;
  className?: string;
}) {
  const known = useName(id);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  const shown = label ?? (known.known || fallback === undefined ? known.name : fallback);
  const named = label !== undefined || known.known || fallback !== undefined;
  const you =
    me !== undefined && id === me && shown !== 'You' ? (
      <span className="ml-1 rounded bg-teal-100 px-1 font-sans text-[11px] font-medium text-teal-900 dark:bg-teal-900 dark:text-teal-100">
        you
      </span>
    ) : null;
  if (plain)
    return (
      <span className={`${named ? '' : 'font-mono text-xs'} ${className}`} title={id} data-testid="name">
        {displayText(shown)}
        {you}
      </span>
    );
  return (
    <span ref={root} className={`relative inline-flex items-baseline ${className}`} data-testid="name">
      <button
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        aria-controls={panelId}
        title={id}
        className={`rounded text-left underline decoration-dotted decoration-slate-400 underline-offset-2 hover:decoration-solid focus-visible:outline-2 focus-visible:outline-teal-600 ${named ? '' : 'font-mono text-xs'}`}
      >
        {displayText(shown)}
      </button>
      {you}
      {open ? (
        <span
          id={panelId}
          role="dialog"
          aria-label={`Identifier of ${shown}`}
          data-testid="name-id"
          className="absolute left-0 top-full z-30 mt-1 flex w-[min(90vw,24rem)] flex-col max-sm:fixed max-sm:inset-x-4 max-sm:top-auto max-sm:w-auto items-start gap-1 whitespace-normal rounded-md border border-slate-200 bg-white p-2 text-xs font-normal text-slate-800 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        >
          <span className="w-full break-all font-mono">{displayText(id)}</span>
          <CopyButton text={id} label="Copy id" />
        </span>
      ) : null}
    </span>
  );
}
