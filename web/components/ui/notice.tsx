import type { ReactNode } from 'react';
import { CopyButton } from './copy-button';

const TONES = {
  error: 'border-rose-200 bg-rose-50 text-rose-900 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-100',
  warn: 'border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/30 dark:text-amber-100',
  success:
    'border-emerald-200 bg-emerald-50 text-emerald-950 dark:border-emerald-900/60 dark:bg-emerald-950/30 dark:text-emerald-100',
  info: 'border-slate-200 bg-white text-slate-800 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-200',
} as const;

export interface NoticeProps {
  tone: keyof typeof TONES;
  title: string;
  children?: ReactNode;
  /** A command to run, shown as copyable code. */
  command?: string | undefined;
  action?: ReactNode;
}

/** A boxed message; errors are announced (role="alert"), the rest politely. */
export function Notice({ tone, title, children, command, action }: NoticeProps) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-lg border px-4 py-3 text-sm ${TONES[tone]}`}>
      <p className="font-medium">{title}</p>
      {children ? <div className="mt-1 opacity-90">{children}</div> : null}
      {command ? <CommandLine command={command} className="mt-2" /> : null}
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}

export function CommandLine({ command, className = '' }: { command: string; className?: string }) {
  return (
    <div
      className={`flex items-start gap-2 rounded-md bg-slate-900/90 py-1 pl-3 pr-1 text-slate-100 dark:bg-black/40 ${className}`}
    >
      <code className="min-w-0 flex-1 whitespace-pre-wrap break-words py-1 font-mono text-xs leading-5">{command}</code>
      <CopyButton text={command} className="text-slate-200! hover:bg-white/10!" />
    </div>
  );
}
