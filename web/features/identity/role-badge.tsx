import type { OperatorRole } from '@shared/contract/auth';

const STYLE: Record<OperatorRole, string> = {
  facilitator:
    'bg-teal-100 text-teal-800 ring-teal-600/20 dark:bg-teal-400/10 dark:text-teal-300 dark:ring-teal-400/30',
  observer:
    'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-400/10 dark:text-slate-300 dark:ring-slate-400/30',
};

const LABEL: Record<OperatorRole, string> = { facilitator: 'Facilitator', observer: 'Observer' };

export function RoleBadge({ role }: { role: OperatorRole }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLE[role]}`}
    >
      {LABEL[role]}
    </span>
  );
}
