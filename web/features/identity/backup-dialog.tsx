import { useState, type RefObject } from 'react';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { Notice } from '@web/components/ui/notice';
import { BackupForm } from './backup-form';

export interface BackupDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes on close when the control that opened the dialog is gone (a closed menu). */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

export function BackupDialog({ open, onOpenChange, returnFocusTo }: BackupDialogProps) {
  const [saved, setSaved] = useState<string | null>(null);
  const change = (next: boolean) => {
    if (!next) setSaved(null);
    onOpenChange(next);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={change}
      {...(returnFocusTo ? { returnFocusTo } : {})}
      title="Download key backup"
      description="An encrypted copy of your operator key. With it and the passphrase you can sign in from a fresh browser."
    >
      {saved ? (
        <div className="space-y-4">
          <Notice tone="success" title="Backup downloaded">
            Saved as <span className="font-mono">{saved}</span>. Keep it somewhere safe, away from this computer.
          </Notice>
          <div className="flex justify-end">
            <Button variant="primary" onClick={() => change(false)}>
              Done
            </Button>
          </div>
        </div>
      ) : (
        <BackupForm onSaved={setSaved} />
      )}
    </Dialog>
  );
}
