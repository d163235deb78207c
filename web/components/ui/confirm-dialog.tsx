// "Are you sure?" for an action that cannot be taken back (decisions-web.md §28): the title asks
// the question, the body says in words what will happen, and the confirm button names the
// action ("Revoke the mic"), never a bare "OK". Cancel comes first, so it takes the focus when
// the body has no control of its own: Enter alone does nothing irreversible.
import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What will happen, in words. */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  /** `danger` (red) for what ends or removes something; `primary` for a change that is only wide. */
  tone?: 'danger' | 'primary';
  busy?: boolean;
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  onConfirm,
  tone = 'danger',
  busy = false,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)} title={title}>
      <div className="text-sm text-slate-700 dark:text-slate-300" data-testid="confirm-what">
        {children}
      </div>
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <Button onClick={() => onOpenChange(false)} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="primary"
          className={tone === 'danger' ? 'bg-rose-700! hover:bg-rose-800! dark:bg-rose-500!' : ''}
          busy={busy}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
