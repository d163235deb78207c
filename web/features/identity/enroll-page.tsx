// /enroll#token=…: create this browser's key together with its encrypted backup (or reuse the
// key it holds), enroll it with the one-time token, and the console opens by itself, saying
// the role and keeping the backup downloadable there (enrolled-notice.tsx).
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { OPERATOR_NAME_MAX, operatorNameProblem } from '@shared/contract/operator-name';
import { describeAuthError, INVITE_COMMAND } from '@web/lib/identity/auth-errors';
import { downloadTextFile } from '@web/lib/identity/download-file';
import { readEnrollToken } from '@web/lib/identity/enroll-link';
import { storedIdentityQuery } from '@web/lib/identity/identity-queries';
import type { KeyCreation } from '@web/lib/identity/key-backup-actions';
import { useJustEnrolled } from '@web/lib/identity/just-enrolled';
import { CreateKeyForm } from './create-key-form';
import { IdentityCard } from './identity-card';
import { useEnroll } from './identity-mutations';
import { RoleBadge } from './role-badge';

function Step({ n, title, done, children }: { n: number; title: string; done?: boolean; children?: ReactNode }) {
  return (
    <li className="relative pl-9">
      <span
        aria-hidden
        className={`absolute left-0 top-0 flex size-6 items-center justify-center rounded-full text-xs font-semibold ${
          done
            ? 'bg-teal-700 text-white dark:bg-teal-500 dark:text-slate-950'
            : 'border border-slate-300 text-slate-500 dark:border-slate-700 dark:text-slate-400'
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
  const [token, setToken] = useState(() => readEnrollToken(window.location.hash));
  const navigate = useNavigate();
  const stored = useQuery({ ...storedIdentityQuery, enabled: token !== null });
  const enrollment = useEnroll(token ?? '');
  // A good link opened in the same tab after a bad one changes only the fragment: read it again,
  // and forget the bad link's refusal (decisions-web.md §37).
  const { reset } = enrollment;
  useEffect(() => {
    const follow = () => {
      const next = readEnrollToken(window.location.hash);
      setToken((current) => {
        if (current !== next) reset();
        return next;
      });
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [reset]);
  // The file made with the key, kept in memory for "download again" while this page is open only.
  const [creation, setCreation] = useState<KeyCreation | null>(null);
  const [replacing, setReplacing] = useState(false);
  const [name, setName] = useState('');
  const nameProblem = name.trim() === '' ? undefined : operatorNameProblem(name);

  const enrollAndOpen = () =>
    enrollment.mutate(name, {
      onSuccess: (session) => {
        useJustEnrolled.getState().set({ role: session.role, backup: creation?.backup ?? null });
        void navigate({ to: '/', replace: true });
      },
    });

  if (token === null) {
    return (
      <Frame>
        <Notice tone="error" title="This enrollment link is incomplete" command={INVITE_COMMAND}>
          It has no token after <code className="font-mono">#token=</code>. Open the whole link exactly as the server
          printed it, or ask an administrator for a new one:
        </Notice>
      </Frame>
    );
  }

  const identity = stored.data ?? null;
  const createdHere = creation !== null && creation.created;
  const session = enrollment.data;
  const error = enrollment.isError
    ? describeAuthError(enrollment.error)
    : stored.isError
      ? describeAuthError(stored.error)
      : null;
  const backup = creation?.backup;

  return (
    <Frame>
      <ol className="space-y-6">
        <Step
          n={1}
          title={identity && !createdHere ? 'Use the key this browser already holds' : 'Create your key and its backup'}
          done={identity !== null}
        >
          {stored.isPending ? (
            <p role="status" className="text-sm text-slate-500">
              Looking for a key in this browser…
            </p>
          ) : identity && createdHere ? (
            <div className="space-y-3">
              <p className="text-sm text-slate-600 dark:text-slate-400">
                A new Ed25519 key was created. It stays locked in this browser: the console can sign with it, but no
                page script can read it. The server only ever sees the identity below.
              </p>
              <IdentityCard did={identity.did} />
              {backup ? (
                <Notice
                  tone="success"
                  title="Backup downloaded"
                  action={
                    <Button size="sm" onClick={() => downloadTextFile(backup.fileName, backup.text)}>
                      Download again
                    </Button>
                  }
                >
                  Saved as <span className="font-mono">{backup.fileName}</span>. Keep it somewhere safe, away from this
                  computer, and remember the passphrase. It can be downloaded again only until you leave this page.
                </Notice>
              ) : null}
            </div>
          ) : identity ? (
            <div className="space-y-3">
              <p className="text-sm text-slate-600 dark:text-slate-400">
                This browser already holds an operator key; it is the one that will be enrolled.
              </p>
              <IdentityCard did={identity.did} />
              {identity.backedUpAt === undefined && !session ? (
                replacing ? (
                  <CreateKeyForm
                    replacing={identity.did}
                    onCreated={(made) => {
                      setReplacing(false);
                      setCreation(made);
                    }}
                    onCancel={() => setReplacing(false)}
                  />
                ) : (
                  <Notice
                    tone="warn"
                    title="This key has no backup"
                    action={
                      <Button size="sm" onClick={() => setReplacing(true)}>
                        Create a new key with a backup instead
                      </Button>
                    }
                  >
                    It cannot be exported from this browser. If this browser's data is cleared, the key is gone and you
                    cannot sign in again. A new key made here comes with its backup file; it takes this key's place in
                    this browser.
                  </Notice>
                )
              ) : null}
            </div>
          ) : stored.isSuccess ? (
            <>
              <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
                Your key is made in this browser and never leaves it, except as a backup file encrypted with a
                passphrase you choose here. Neither the file nor the passphrase ever reaches the server.
              </p>
              <CreateKeyForm onCreated={setCreation} />
            </>
          ) : null}
        </Step>

        <Step n={2} title="Enroll it with this server" done={enrollment.isSuccess}>
          {session ? (
            <p className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300" role="status">
              Enrolled as <RoleBadge role={session.role} />: opening the console…
            </p>
          ) : identity ? (
            <>
              <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
                The link is for one use only. Enrolling proves you hold the key by signing a one-time challenge.
              </p>
              <TextField
                className="mb-4"
                label="Your name"
                hint="Optional. Other operators see it beside your decisions and on the pages you have open."
                value={name}
                maxLength={OPERATOR_NAME_MAX * 2}
                autoComplete="name"
                onChange={(e) => setName(e.target.value)}
                error={nameProblem ? `Your name ${nameProblem}.` : undefined}
              />
              {error ? (
                <div className="mb-3">
                  <Notice tone="error" title={error.title} command={error.command}>
                    {error.detail}
                  </Notice>
                </div>
              ) : null}
              {/* A used or expired link stays so; only other failures are worth another try. */}
              {error?.code === 'ENROLLMENT_INVALID' ? null : (
                <Button
                  variant="primary"
                  onClick={enrollAndOpen}
                  busy={enrollment.isPending}
                  disabled={nameProblem !== undefined}
                >
                  {enrollment.isPending ? 'Enrolling…' : enrollment.isError ? 'Try again' : 'Enroll this key'}
                </Button>
              )}
            </>
          ) : error ? (
            <Notice tone="error" title={error.title} command={error.command}>
              {error.detail}
            </Notice>
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
      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        {children}
      </div>
    </div>
  );
}
