// Passphrase, confirmation, strength hint, then an encrypted .json download of the key.
import { useState, type FormEvent } from 'react';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { describeAuthError } from '@web/lib/identity/auth-errors';
import { MIN_PASSPHRASE_LENGTH } from '@web/lib/identity/key-backup';
import { passphraseStrength } from '@web/lib/identity/passphrase-strength';
import { PassphraseMeter } from './passphrase-meter';
import { useDownloadBackup } from './identity-mutations';

export interface BackupFormProps {
  onSaved: (fileName: string) => void;
  /** Offered where backing up can wait; the console keeps reminding until it is done. */
  onSkip?: () => void;
}

export function BackupForm({ onSaved, onSkip }: BackupFormProps) {
  const [passphrase, setPassphrase] = useState('');
  const [confirm, setConfirm] = useState('');
  const [show, setShow] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const download = useDownloadBackup();
  const strength = passphraseStrength(passphrase);

  const tooShort = [...passphrase].length < MIN_PASSPHRASE_LENGTH;
  const mismatch = confirm !== passphrase;
  const passphraseError = submitted && tooShort ? `Use at least ${MIN_PASSPHRASE_LENGTH} characters.` : undefined;
  const confirmError = (submitted || confirm.length >= passphrase.length) && confirm.length > 0 && mismatch
    ? 'The two passphrases differ.'
    : submitted && confirm.length === 0 ? 'Type the passphrase again.' : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (tooShort || mismatch) return;
    download.mutate(passphrase, { onSuccess: ({ fileName }) => onSaved(fileName) });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div>
        <TextField
          label="Passphrase"
          type={show ? 'text' : 'password'}
          autoComplete="new-password"
          value={passphrase}
          onChange={(e) => setPassphrase(e.target.value)}
          error={passphraseError}
          hint={<PassphraseMeter strength={strength} empty={passphrase.length === 0} />}
        />
      </div>
      <TextField
        label="Confirm passphrase"
        type={show ? 'text' : 'password'}
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={confirmError}
      />
      <label className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
        <input type="checkbox" checked={show} onChange={(e) => setShow(e.target.checked)} className="size-4 accent-teal-700" />
        Show passphrases
      </label>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Nobody can recover a forgotten passphrase, not even an administrator. Keep it apart from the file.
      </p>
      {download.isError ? (() => {
        const text = describeAuthError(download.error);
        return <Notice tone="error" title={text.title}>{text.detail}</Notice>;
      })() : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" busy={download.isPending}>
          {download.isPending ? 'Encrypting…' : 'Download backup'}
        </Button>
        {onSkip ? (
          <Button variant="ghost" onClick={onSkip} disabled={download.isPending}>
            Skip for now
          </Button>
        ) : null}
      </div>
    </form>
  );
}
