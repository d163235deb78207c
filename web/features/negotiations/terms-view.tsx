// Terms and diffs, always as text: agent-written values never reach the DOM as HTML.
// Long values collapse behind "Show all" (decisions-web.md §25).
import { LongText } from '@web/components/ui/long-text';
import { absolute, dayWords } from '@web/lib/time-words';
import type { TermChange } from './terms-diff';
import { pointerInWords, termName } from '@web/lib/negotiation/term-words';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** A term's value as text; an RFC 3339 time in the one format (decisions-web.md §36), a day as a day. */
export const showValue = (v: unknown): string => {
  if (typeof v === 'string' && ISO_TIME.test(v) && Number.isFinite(Date.parse(v))) {
    const ms = Date.parse(v);
    return ms % 86_400_000 === 0 ? dayWords(ms) : absolute(ms);
  }
  return typeof v === 'string' ? v : JSON.stringify(v);
};

export function TermsTable({ terms }: { terms: Readonly<Record<string, unknown>> }) {
  const entries = Object.entries(terms);
  if (entries.length === 0) return <p className="text-sm text-slate-500">No terms.</p>;
  return (
    <dl
      className="grid grid-cols-[minmax(0,max-content)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm sm:grid-cols-[minmax(8rem,max-content)_minmax(0,1fr)]"
      data-testid="terms"
    >
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="min-w-0 text-xs leading-5 text-slate-600 dark:text-slate-400">
            <abbr title={k} className="no-underline">
              <LongText text={termName(k)} chars={120} />
            </abbr>
          </dt>
          <dd className="min-w-0">
            <LongText text={showValue(v)} preserveLines />
          </dd>
        </div>
      ))}
    </dl>
  );
}

const KIND = {
  added: { sign: '+', words: 'added', tone: 'text-emerald-800 dark:text-emerald-300' },
  removed: { sign: '−', words: 'removed', tone: 'text-rose-800 dark:text-rose-300' },
  changed: { sign: '~', words: 'changed', tone: 'text-amber-800 dark:text-amber-300' },
} as const;

export function TermsDiff({ changes }: { changes: readonly TermChange[] }) {
  if (changes.length === 0) return <p className="text-sm text-slate-500">Same terms as the previous proposal.</p>;
  return (
    <ul className="space-y-1 text-sm" data-testid="terms-diff" aria-label="Changes from the previous proposal">
      {changes.map((c) => (
        <li
          key={c.pointer}
          data-testid="term-change"
          data-kind={c.kind}
          className="flex flex-wrap items-baseline gap-x-2"
        >
          <span className={`w-20 shrink-0 whitespace-nowrap text-xs font-medium ${KIND[c.kind].tone}`}>
            <span aria-hidden>{KIND[c.kind].sign} </span>
            {KIND[c.kind].words}
          </span>
          <abbr title={c.pointer} className="min-w-0 text-xs font-medium no-underline" data-testid="term-name">
            <LongText text={pointerInWords(c.pointer)} chars={120} />
          </abbr>
          {c.kind === 'changed' ? (
            <span className="min-w-0">
              <del className="text-slate-500 dark:text-slate-400">
                <LongText text={showValue(c.before)} preserveLines />
              </del>{' '}
              <span aria-hidden>→</span>
              <span className="sr-only">to</span>{' '}
              <ins className="no-underline font-medium">
                <LongText text={showValue(c.after)} preserveLines />
              </ins>
            </span>
          ) : c.kind === 'added' ? (
            <ins className="min-w-0 no-underline font-medium">
              <LongText text={showValue(c.after)} preserveLines />
            </ins>
          ) : (
            <del className="min-w-0 text-slate-500 dark:text-slate-400">
              <LongText text={showValue(c.before)} preserveLines />
            </del>
          )}
        </li>
      ))}
    </ul>
  );
}
