const TONES = {
  ok: 'bg-emerald-500',
  warn: 'bg-amber-500',
  down: 'bg-rose-500',
  idle: 'bg-slate-400',
} as const;

export function StatusDot({ tone, label }: { tone: keyof typeof TONES; label: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 text-sm">
      <span aria-hidden className={`size-2 rounded-full ${TONES[tone]}`} />
      {label}
    </span>
  );
}
