// The identities the bridge follows on every external relay: each relay is long-polled
// for envelopes to and from every operator's DID and these. Facilitators add and remove them;
// observers read the list. Removing one offers undo rather than asking first (decisions-web.md
// §28): watching the same DID again restores exactly what was there.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { addWatched, removeWatched, watchedQuery } from '@web/lib/api/external-watched';
import { shortDid } from '@web/lib/identity/did-short';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { errorInWords } from '@web/lib/api/error-words';
import { checkWatchDid } from './watch-did';

export function WatchList() {
  const session = useSession();
  const facilitator = canAct(session);
  const watched = useQuery(watchedQuery);
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [removed, setRemoved] = useState<string | null>(null);
  const settle = (list: string[]) => {
    queryClient.setQueryData(watchedQuery.queryKey, list);
    void queryClient.invalidateQueries({ queryKey: ['external'] });
  };
  const add = useMutation({
    mutationFn: addWatched,
    onSuccess: (list) => {
      setText('');
      settle(list);
    },
  });
  const remove = useMutation({
    mutationFn: removeWatched,
    onSuccess: (list, did) => {
      settle(list);
      setRemoved(did);
    },
  });
  const undo = useMutation({
    mutationFn: addWatched,
    onSuccess: (list) => {
      settle(list);
      setRemoved(null);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkWatchDid(text, watched.data ?? [], session ? [session.did] : []);
    setProblem(checked.ok ? undefined : checked.problem);
    if (checked.ok) add.mutate(checked.did);
  };

  return (
    <section aria-labelledby="watched-heading" className="mt-8">
      <h2 id="watched-heading" className="text-lg font-semibold">
        Watched identities
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Every external relay is asked for what is sent to and from these DIDs, and to and from every operator’s own.
        Their threads then show under Threads.
      </p>
      <div className="mt-3">
        {watched.isPending ? (
          <p role="status" className="text-sm text-slate-500">
            Loading the watch list…
          </p>
        ) : watched.isError ? (
          <Notice
            tone="error"
            title="Cannot read the watch list"
            action={<Button onClick={() => void watched.refetch()}>Try again</Button>}
          >
            {errorInWords(watched.error)}
          </Notice>
        ) : watched.data.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="watched-empty">
            No DIDs watched besides the operators’ own.
          </p>
        ) : (
          <ul
            aria-label="Watched DIDs"
            className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
          >
            {watched.data.map((did) => (
              <li key={did} data-testid="watched-row" className="flex items-center gap-3 px-4 py-2">
                <span className="min-w-0 flex-1 break-all font-mono text-xs" title={did} data-testid="watched-did">
                  {did}
                </span>
                {facilitator ? (
                  <Button
                    size="sm"
                    onClick={() => remove.mutate(did)}
                    busy={remove.isPending && remove.variables === did}
                    aria-label={`Stop watching ${shortDid(did)}`}
                  >
                    Remove
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {removed && !watched.data?.includes(removed) ? (
          <p role="status" data-testid="watch-undo" className="mt-2 flex flex-wrap items-center gap-2 text-sm">
            <span>
              Stopped watching <span className="font-mono text-xs">{shortDid(removed)}</span>.
            </span>
            <Button size="sm" variant="link" busy={undo.isPending} onClick={() => undo.mutate(removed)}>
              Undo
            </Button>
          </p>
        ) : null}
        {remove.isError || undo.isError ? (
          <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
            {errorInWords(remove.error ?? undo.error)}
          </p>
        ) : null}
      </div>
      {facilitator ? (
        <form onSubmit={submit} aria-label="Watch a DID" className="mt-3 flex flex-wrap items-start gap-3">
          <TextField
            label="DID to watch"
            className="min-w-72 flex-1"
            placeholder="did:key:z6Mk…"
            spellCheck={false}
            autoComplete="off"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setProblem(undefined);
            }}
            error={problem ?? (add.isError ? errorInWords(add.error) : undefined)}
          />
          <Button type="submit" className="mt-6" busy={add.isPending}>
            Watch
          </Button>
        </form>
      ) : (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          Observers see the watch list; facilitators change it.
        </p>
      )}
    </section>
  );
}
