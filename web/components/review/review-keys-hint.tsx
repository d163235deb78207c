// The review keys, shown beside a review list: they work without a click first, so the hint is
// the only way an operator learns they are there (decisions-web.md §28).
const Key = ({ k }: { k: string }) => (
  <kbd className="rounded border border-slate-300 bg-white px-1 font-mono text-[0.7rem] text-slate-700 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200">
    {k}
  </kbd>
);

export function ReviewKeysHint({ className = '' }: { className?: string }) {
  return (
    <span
      data-testid="review-keys-hint"
      className={`ml-2 inline-flex flex-wrap items-center gap-1 text-xs font-normal text-slate-600 dark:text-slate-400 ${className}`}
    >
      <Key k="J" />/<Key k="K" /> move · <Key k="A" /> approve · <Key k="R" /> reject
    </span>
  );
}
