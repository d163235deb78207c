// Restore from backup: pick the .json file, type its passphrase; the key inside is checked
// against its did before it replaces anything in this browser.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { describeAuthError } from '@web/lib/identity/auth-errors';
import { keyFingerprint, shortDid } from '@web/lib/identity/did-display';
import type { IdentitySummary } from '@web/lib/identity/identity-store';
import { MAX_BACKUP_FILE_BYTES, parseBackup, type KeyBackupFile } from '@web/lib/identity/key-backup';
import { useRestoreBackup } from './identity-mutations';

export interface RestoreDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The key this browser holds now, if any: restoring another one replaces it. */
  current: IdentitySummary | null;
  onRestored: (identity: IdentitySummary) => void;
}

type Picked = { readonly text: string; readonly file: KeyBackupFile } | { readonly error: string } | null;

export function RestoreDialog({ open, onOpenChange, current, onRestored }: RestoreDialogProps) {
  const [picked, setPicked] = useState<Picked>(null);
  const [passphrase, setPassphrase] = useState('');
  const restore = useRestoreBackup();

  const reset = (next: boolean) => {
    if (!next) {
      setPicked(null);
      setPassphrase('');
      restore.reset();
    }
    onOpenChange(next);
  };

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    restore.reset();
    const file = event.target.files?.[0];
    if (!file) return setPicked(null);
    if (file.size > MAX_BACKUP_FILE_BYTES)
      return setPicked({ error: 'This file is too large to be a Switchboard key backup.' });
    try {
      const text = await file.text();
      setPicked({ text, file: parseBackup(text) });
    } catch (error) {
      setPicked({ error: describeAuthError(error).detail });
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!picked || !('text' in picked) || passphrase.length === 0) return;
    restore.mutate(
      { text: picked.text, passphrase },
      {
        onSuccess: (identity) => {
          reset(false);
          onRestored(identity);
        },
      },
    );
  };

  const file = picked && 'file' in picked ? picked.file : null;
  const replacing = file && current && current.did !== file.did ? current : null;
  const error = restore.isError ? describeAuthError(restore.error) : null;

  return (
    <Dialog
      open={open}
      onOpenChange={reset}
      title="Restore from backup"
      description="Bring back your operator key from the encrypted .json file you downloaded."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          label="Backup file"
          type="file"
          accept=".json,application/json"
          onChange={(e) => void pick(e)}
          error={picked && 'error' in picked ? picked.error : undefined}
          className="[&_input]:file:mr-3 [&_input]:file:rounded [&_input]:file:border-0 [&_input]:file:bg-slate-100 [&_input]:file:px-2 [&_input]:file:py-0.5 [&_input]:file:text-sm dark:[&_input]:file:bg-slate-800 dark:[&_input]:file:text-slate-200"
        />
        {file ? (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            Key in this file: <span className="font-mono text-slate-900 dark:text-slate-200">{shortDid(file.did)}</span>
            , fingerprint{' '}
            <span className="whitespace-nowrap font-mono text-slate-900 dark:text-slate-200">
              {keyFingerprint(file.did)}
            </span>
          </p>
        ) : null}
        <TextField
          label="Passphrase"
          type="password"
          autoComplete="current-password"
          value={passphrase}
          onChange={(e) => setPassphrase(e.target.value)}
        />
        {replacing ? (
          <Notice tone="warn" title="This replaces the key in this browser">
            The key now here ({shortDid(replacing.did)}) will be removed.
            {replacing.backedUpAt === undefined
              ? ' It has never been backed up, so it will be lost for good.'
              : ' Keep its backup if you may need it again.'}
          </Notice>
        ) : null}
        {error ? (
          <Notice tone="error" title={error.title}>
            {error.detail}
          </Notice>
        ) : null}
        <div className="flex justify-end gap-3">
          <Button variant="ghost" onClick={() => reset(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" busy={restore.isPending} disabled={!file || passphrase.length === 0}>
            {restore.isPending ? 'Decrypting…' : replacing ? 'Replace and sign in' : 'Restore and sign in'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
