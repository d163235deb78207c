// Where a thread or service comes from: "built-in" or the external service's name.
export function SourceBadge({ name, down = false }: { name: string; down?: boolean }) {
  return (
    <span
      data-testid="source-badge"
      className="inline-flex items-center gap-1 rounded-full border border-slate-300 px-2 py-0.5 text-xs text-slate-700 dark:border-slate-700 dark:text-slate-300"
    >
      {name}
      {down ? <span className="font-medium text-rose-700 dark:text-rose-300">· down</span> : null}
    </span>
  );
}
