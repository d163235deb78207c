// What a visitor without a session sees: one click to sign in with the key this browser
// holds, or how to get a key (an enrollment link) and a way back in from a backup.
import { useState } from 'react';
import { Button } from '@web/components/ui/button';
import { CommandLine, Notice } from '@web/components/ui/notice';
import { describeAuthError, INVITE_COMMAND } from '@web/lib/identity/auth-errors';
import { keyFingerprint, shortDid } from '@web/lib/identity/did-display';
import { useStoredIdentity } from '@web/lib/identity/identity-queries';
import { CopyButton } from '@web/components/ui/copy-button';
import { useSignIn } from './identity-mutations';
import { RestoreDialog } from './restore-dialog';

export function SignInScreen() {
  const stored = useStoredIdentity();
  const signIn = useSignIn();
  const [restoring, setRestoring] = useState(false);
  const identity = stored.data ?? null;
  const error = signIn.isError
    ? describeAuthError(signIn.error)
    : stored.isError
      ? describeAuthError(stored.error)
      : null;

  const restoreDialog = (
    <RestoreDialog open={restoring} onOpenChange={setRestoring} current={identity} onRestored={() => signIn.mutate()} />
  );

  return (
    <div className="mx-auto mt-8 max-w-md">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-xl font-semibold tracking-tight">Sign in to Switchboard</h1>
        {stored.isPending ? (
          <p role="status" className="mt-3 text-sm text-slate-500">
            Looking for your key…
          </p>
        ) : identity ? (
          <>
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              This browser holds your operator key. Signing in signs a one-time challenge; the key itself never leaves
              the browser.
            </p>
            <Button variant="primary" className="mt-5 w-full" busy={signIn.isPending} onClick={() => signIn.mutate()}>
              Sign in as <span className="font-mono">{shortDid(identity.did)}</span>
            </Button>
            <p className="mt-2 text-center text-xs text-slate-500 dark:text-slate-400">
              Fingerprint{' '}
              <span className="whitespace-nowrap font-mono text-slate-700 dark:text-slate-300">
                {keyFingerprint(identity.did)}
              </span>
            </p>
          </>
        ) : (
          <>
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              This browser has no operator key yet. You get one by opening an enrollment link from an administrator, who
              creates it on the server with:
            </p>
            <CommandLine command={INVITE_COMMAND} className="mt-3" />
            <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
              (or <code className="font-mono text-xs">--role observer</code> to watch without acting). The very first
              facilitator's link is printed by the server when it starts with nobody enrolled.
            </p>
          </>
        )}

        {error ? (
          <div className="mt-5">
            <Notice tone="error" title={error.title} command={error.command}>
              {error.detail}
              {error.code === 'NOT_ENROLLED' && identity ? (
                <span className="mt-2 flex items-center gap-2">
                  <span className="min-w-0 break-all font-mono text-xs">{identity.did}</span>
                  <CopyButton text={identity.did} label="Copy DID" />
                </span>
              ) : null}
            </Notice>
          </div>
        ) : null}

        <div className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-800">
          {identity ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Need a different key?{' '}
              <Button variant="link" onClick={() => setRestoring(true)}>
                Restore from backup
              </Button>
            </p>
          ) : (
            <div className="flex items-center justify-between gap-3">
              <p className="text-sm text-slate-600 dark:text-slate-400">Have a key backup file?</p>
              <Button onClick={() => setRestoring(true)}>Restore from backup</Button>
            </div>
          )}
        </div>
      </div>
      {restoreDialog}
    </div>
  );
}
