const TONES = {
  ok: 'bg-emerald-500',
  warn: 'bg-amber-500',
  down: 'bg-rose-500',
  idle: 'bg-slate-400',
} as const;

/** `compact`: below 640 px only the dot shows; the label stays for screen readers and as a tooltip. */
export function StatusDot({
  tone,
  label,
  compact = false,
}: {
  tone: keyof typeof TONES;
  label: string;
  compact?: boolean;
}) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 text-sm ${compact ? 'whitespace-nowrap' : ''}`}
      title={compact ? label : undefined}
    >
      <span aria-hidden className={`size-2 shrink-0 rounded-full ${TONES[tone]}`} />
      {compact ? <span className="max-sm:sr-only">{label}</span> : label}
    </span>
  );
}
