// /enroll#token=…: create (or reuse) this browser's key, enroll it with the one-time token,
// offer the encrypted backup, then open the console.
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { describeAuthError, INVITE_COMMAND } from '@web/lib/identity/auth-errors';
import { readEnrollToken } from '@web/lib/identity/enroll-link';
import { storedIdentityQuery } from '@web/lib/identity/identity-queries';
import { identityStore, summarize } from '@web/lib/identity/identity-store';
import { BackupForm } from './backup-form';
import { IdentityCard } from './identity-card';
import { useEnroll } from './identity-mutations';
import { RoleBadge } from './role-badge';

const ensuredIdentityQuery = queryOptions({
  queryKey: ['identity', 'ensured'],
  queryFn: async () => {
    const { identity, created } = await identityStore.ensure();
    return { identity: summarize(identity), created };
  },
  staleTime: Infinity,
  retry: false,
  networkMode: 'always',
});

function Step({ n, title, done, children }: { n: number; title: string; done?: boolean; children?: ReactNode }) {
  return (
    <li className="relative pl-9">
      <span
        aria-hidden
        className={`absolute left-0 top-0 flex size-6 items-center justify-center rounded-full text-xs font-semibold ${
          done ? 'bg-teal-700 text-white dark:bg-teal-500 dark:text-slate-950' : 'border border-slate-300 text-slate-500 dark:border-slate-700 dark:text-slate-400'
        }`}
      >
        {done ? '✓' : n}
      </span>
      <h2 className="text-sm font-semibold leading-6">
        {title}
        {done ? <span className="sr-only"> (done)</span> : null}
      </h2>
      {children ? <div className="mt-2">{children}</div> : null}
    </li>
  );
}

export function EnrollPage() {
  const [token] = useState(() => readEnrollToken(window.location.hash));
  const client = useQueryClient();
  const navigate = useNavigate();
  const ensured = useQuery({ ...ensuredIdentityQuery, enabled: token !== null });
  const enrollment = useEnroll(token ?? '');
  const [backup, setBackup] = useState<'pending' | 'skipped' | { fileName: string }>('pending');

  useEffect(() => {
    if (ensured.data) client.setQueryData(storedIdentityQuery.queryKey, ensured.data.identity);
  }, [client, ensured.data]);

  const openConsole = () => void navigate({ to: '/', replace: true });

  if (token === null) {
    return (
      <Frame>
        <Notice tone="error" title="This enrollment link is incomplete" command={INVITE_COMMAND}>
          It has no token after <code className="font-mono">#token=</code>. Open the whole link exactly as the server printed it, or ask an
          administrator for a new one:
        </Notice>
      </Frame>
    );
  }

  const session = enrollment.data;
  const error = enrollment.isError ? describeAuthError(enrollment.error) : ensured.isError ? describeAuthError(ensured.error) : null;

  return (
    <Frame>
      <ol className="space-y-6">
        <Step n={1} title={ensured.data?.created === false ? 'Use the key this browser already holds' : 'Create your key in this browser'} done={ensured.isSuccess}>
          {ensured.data ? (
            <>
              <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
                {ensured.data.created
                  ? 'A new Ed25519 key was created. Its private half stays in this browser; the server only ever sees the identity below.'
                  : 'This browser already holds an operator key; it is the one that will be enrolled.'}
              </p>
              <IdentityCard did={ensured.data.identity.did} />
            </>
          ) : ensured.isPending ? (
            <p role="status" className="text-sm text-slate-500">Creating your key…</p>
          ) : null}
        </Step>

        <Step n={2} title="Enroll it with this server" done={enrollment.isSuccess}>
          {session ? (
            <p className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300" role="status">
              You are enrolled as <RoleBadge role={session.role} />
            </p>
          ) : (
            <>
              <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
                The link is for one use only. Enrolling proves you hold the key by signing a one-time challenge.
              </p>
              {error ? (
                <div className="mb-3">
                  <Notice tone="error" title={error.title} command={error.command}>
                    {error.detail}
                  </Notice>
                </div>
              ) : null}
              {/* A used or expired link stays so; only other failures are worth another try. */}
              {error?.code === 'ENROLLMENT_INVALID' ? null : (
                <Button variant="primary" onClick={() => enrollment.mutate()} busy={enrollment.isPending} disabled={!ensured.isSuccess}>
                  {enrollment.isPending ? 'Enrolling…' : enrollment.isError ? 'Try again' : 'Enroll this key'}
                </Button>
              )}
            </>
          )}
        </Step>

        <Step n={3} title="Back up your key" done={typeof backup === 'object'}>
          {!session ? null : backup === 'pending' ? (
            <>
              <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
                If this browser's data is cleared, the key is gone and you cannot sign in again. The backup file is encrypted with a passphrase
                you choose here; neither ever reaches the server.
              </p>
              <BackupForm onSaved={(fileName) => setBackup({ fileName })} onSkip={openConsole} />
            </>
          ) : typeof backup === 'object' ? (
            <div className="space-y-4">
              <Notice tone="success" title="Backup downloaded">
                Saved as <span className="font-mono">{backup.fileName}</span>. Keep it somewhere safe, away from this computer, and remember the
                passphrase.
              </Notice>
              <Button variant="primary" onClick={openConsole}>
                Open the console
              </Button>
            </div>
          ) : null}
        </Step>
      </ol>
    </Frame>
  );
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="text-2xl font-semibold tracking-tight">Enroll as an operator</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        This one-time link registers a key from this browser with this Switchboard server.
      </p>
      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">{children}</div>
    </div>
  );
}
