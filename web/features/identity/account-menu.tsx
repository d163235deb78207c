// The header's identity: the operator's name (or "Operator …K7Qm2x" until they give one,
// decisions-web.md §46) and role; opens a small panel with the full did, whether the key has a
// backup, and sign-out. A disclosure (button + panel): Escape or a click outside
// closes it and focus returns to the button.
import { browserTimeZone } from '@web/lib/oacop/zone-labels';
import { absolute } from '@web/lib/time-words';
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { CopyButton } from '@web/components/ui/copy-button';
import type { OperatorSession } from '@shared/contract/auth';
import { keyFingerprint } from '@web/lib/identity/did-display';
import { unnamedOperator } from '@shared/contract/operator-name';
import { useStoredIdentity } from '@web/lib/identity/identity-queries';
import { initials } from '@web/lib/operators/operator-words';
import { useSignOut } from './identity-mutations';
import { RoleBadge } from './role-badge';

export function AccountMenu({ session }: { session: OperatorSession }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const stored = useStoredIdentity();
  const signOut = useSignOut();
  const holdsKey = stored.data?.did === session.did;
  // The key cannot be exported after it was made, so the menu says whether a backup exists instead of offering one.
  const backupStatus = !holdsKey
    ? stored.isSuccess
      ? 'This browser does not hold the key of this session.'
      : null
    : stored.data?.backedUpAt !== undefined
      ? `Key backup made ${absolute(stored.data.backedUpAt, browserTimeZone())}. The key itself stays locked in this browser.`
      : 'This key has no backup, and it cannot be exported from this browser.';

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        trigger.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const item =
    'flex w-full items-center rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-400 dark:text-slate-200 dark:hover:bg-slate-800 dark:disabled:text-slate-500';

  return (
    <div ref={root} className="relative">
      <button
        ref={trigger}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`Account: ${session.name ?? unnamedOperator(session.did)}, ${session.role}`}
        title={session.did}
        onClick={() => setOpen((v) => !v)}
        className="flex items-center gap-2 whitespace-nowrap rounded-md border border-slate-200 px-1.5 py-1 text-sm sm:px-2.5 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        {/* On a phone the chip is the operator's initials (the button's label says the rest), so
            the header keeps one line at 390 px. */}
        <span
          aria-hidden
          className="grid size-6 place-items-center rounded-full bg-teal-100 text-[0.65rem] font-semibold text-teal-800 sm:hidden dark:bg-teal-900 dark:text-teal-200"
        >
          {initials(session)}
        </span>
        {session.name !== null ? (
          <span
            className="max-w-[12rem] truncate text-sm font-medium text-slate-800 max-sm:hidden dark:text-slate-200"
            data-testid="account-name"
          >
            {session.name}
          </span>
        ) : (
          <span className="text-sm text-slate-700 max-sm:hidden dark:text-slate-300" data-testid="account-unnamed">
            {unnamedOperator(session.did)}
          </span>
        )}
        <span className="max-sm:hidden">
          <RoleBadge role={session.role} />
        </span>
        <span aria-hidden className={`text-xs text-slate-400 transition-transform ${open ? 'rotate-180' : ''}`}>
          ▾
        </span>
      </button>
      {open ? (
        <div
          id={panelId}
          className="absolute right-0 z-30 mt-2 w-[22rem] max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="px-3 py-2">
            <div className="flex items-center justify-between">
              <p className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
                Signed in as
              </p>
              <RoleBadge role={session.role} />
            </div>
            <p className="mt-1 break-words text-sm font-medium text-slate-900 dark:text-slate-100">
              {session.name ?? `${unnamedOperator(session.did)}, no name given yet`}
            </p>
            <p className="mt-1 break-all font-mono text-xs text-slate-900 dark:text-slate-100">{session.did}</p>
            <div className="mt-1 flex items-center justify-between">
              <p className="text-xs text-slate-500 dark:text-slate-400">
                Fingerprint{' '}
                <span className="whitespace-nowrap font-mono text-slate-700 dark:text-slate-300">
                  {keyFingerprint(session.did)}
                </span>
              </p>
              <CopyButton text={session.did} label="Copy DID" />
            </div>
          </div>
          <div className="my-1 border-t border-slate-200 dark:border-slate-800" />
          {backupStatus ? (
            <p className="px-3 py-2 text-xs text-slate-600 dark:text-slate-400" data-testid="key-backup-status">
              {backupStatus}
            </p>
          ) : null}
          <Link to="/settings/account" className={item} onClick={() => setOpen(false)}>
            {session.name === null ? 'Give your name…' : 'Change your name…'}
          </Link>
          {session.role === 'facilitator' ? (
            <Link to="/settings/operators" className={item} onClick={() => setOpen(false)}>
              Operators and invitations
            </Link>
          ) : null}
          <button
            type="button"
            className={item}
            disabled={signOut.isPending}
            onClick={() => signOut.mutate(undefined, { onSettled: () => setOpen(false) })}
          >
            {signOut.isPending ? 'Signing out…' : 'Sign out'}
          </button>
        </div>
      ) : null}
    </div>
  );
}
