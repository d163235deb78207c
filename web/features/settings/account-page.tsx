// /settings/account: your name as other operators see it (beside your decisions, on the pages you
// have open), and the key it belongs to. Any operator may set their own (PATCH /api/me).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '@web/components/ui/button';
import { CopyButton } from '@web/components/ui/copy-button';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { OPERATOR_NAME_MAX, operatorNameProblem } from '@shared/contract/operator-name';
import { sessionQuery } from '@web/lib/api/auth-session';
import { setMyName } from '@web/lib/api/operator-me';
import { useSession } from '@web/lib/identity/use-session';
import { errorInWords } from '@web/lib/api/error-words';

export function AccountPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState<string | null>(null);
  const value = name ?? session?.name ?? '';
  const problem = operatorNameProblem(value);
  const save = useMutation({
    mutationFn: (next: string) => setMyName(next),
    onSuccess: (me) => {
      queryClient.setQueryData(sessionQuery.queryKey, me);
      setName(null);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (problem === undefined) save.mutate(value);
  };
  if (!session) return null;

  return (
    <div className="mx-auto max-w-xl">
      <h1 className="text-2xl font-semibold tracking-tight">Your account</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Other operators see your name beside your decisions and on the rooms and queues you have open.
      </p>
      <form
        onSubmit={submit}
        className="mt-6 space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <TextField
          label="Your name"
          value={value}
          maxLength={OPERATOR_NAME_MAX * 2}
          autoComplete="name"
          onChange={(e) => setName(e.target.value)}
          hint={`1 to ${OPERATOR_NAME_MAX} characters.`}
          error={name !== null && problem ? `Your name ${problem}.` : undefined}
        />
        <div className="flex items-center gap-3">
          <Button
            type="submit"
            variant="primary"
            busy={save.isPending}
            disabled={save.isPending || problem !== undefined || value.trim() === (session.name ?? '')}
          >
            Save
          </Button>
          {save.isSuccess && name === null ? (
            <span role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
              Saved.
            </span>
          ) : null}
        </div>
        {save.isError ? (
          <Notice tone="error" title="Not saved">
            {errorInWords(save.error)}
          </Notice>
        ) : null}
        <div className="border-t border-slate-200 pt-4 dark:border-slate-800">
          <p className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">Your key</p>
          <div className="mt-1 flex items-center gap-2">
            <p className="min-w-0 break-all font-mono text-xs text-slate-900 dark:text-slate-100">{session.did}</p>
            <CopyButton text={session.did} label="Copy DID" />
          </div>
        </div>
      </form>
    </div>
  );
}
