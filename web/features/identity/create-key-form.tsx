// Passphrase, confirmation, strength hint, then the key is made and its encrypted .json backup
// downloaded in the same step: once made, the key cannot be read out again to back it up.
import { useState, type FormEvent } from 'react';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { describeAuthError } from '@web/lib/identity/auth-errors';
import { MIN_PASSPHRASE_LENGTH } from '@web/lib/identity/key-backup';
import { passphraseStrength } from '@web/lib/identity/passphrase-strength';
import { PassphraseMeter } from './passphrase-meter';
import { useCreateKey } from './identity-mutations';
import type { KeyCreation } from '@web/lib/identity/key-backup-actions';
import type { DidKey } from '@shared/crypto/did-key';

export interface CreateKeyFormProps {
  onCreated: (creation: KeyCreation) => void;
  /** The stored key (one with no backup) that the new key replaces. */
  replacing?: DidKey;
  onCancel?: () => void;
}

export function CreateKeyForm({ onCreated, replacing, onCancel }: CreateKeyFormProps) {
  const [passphrase, setPassphrase] = useState('');
  const [confirm, setConfirm] = useState('');
  const [show, setShow] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateKey();
  const strength = passphraseStrength(passphrase);

  const tooShort = [...passphrase].length < MIN_PASSPHRASE_LENGTH;
  const mismatch = confirm !== passphrase;
  const passphraseError = submitted && tooShort ? `Use at least ${MIN_PASSPHRASE_LENGTH} characters.` : undefined;
  const confirmError =
    (submitted || confirm.length >= passphrase.length) && confirm.length > 0 && mismatch
      ? 'The two passphrases differ.'
      : submitted && confirm.length === 0
        ? 'Type the passphrase again.'
        : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (tooShort || mismatch) return;
    create.mutate(replacing === undefined ? { passphrase } : { passphrase, replacing }, { onSuccess: onCreated });
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
        <input
          type="checkbox"
          checked={show}
          onChange={(e) => setShow(e.target.checked)}
          className="size-4 accent-teal-700"
        />
        Show passphrases
      </label>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Nobody can recover a forgotten passphrase, not even an administrator. Keep it apart from the file. This is the
        only time the backup can be made: afterwards the key stays locked inside this browser.
      </p>
      {create.isError
        ? (() => {
            const text = describeAuthError(create.error);
            return (
              <Notice tone="error" title={text.title}>
                {text.detail}
              </Notice>
            );
          })()
        : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" busy={create.isPending}>
          {create.isPending
            ? 'Creating your key…'
            : replacing
              ? 'Replace key and download backup'
              : 'Create key and download backup'}
        </Button>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel} disabled={create.isPending}>
            Keep the current key
          </Button>
        ) : null}
      </div>
    </form>
  );
}
