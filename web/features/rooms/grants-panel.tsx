// Active mic grants as live objects (countdown, budget meter, ends by itself), the grant history
// per task, and revoking one mic or every mic behind a confirmation that says what it ends
// (decisions-web.md §28: a revoke cannot be taken back, only a new grant given).
import { TaskName } from '@web/components/task-name';
import { messageTypeWords } from '@shared/aor/message-type-words';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { displayText } from '@web/lib/display-text';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { activeGrantsQuery, allGrantsQuery, type Grant } from '@web/lib/api/rooms-grants';
import { revokeGrant } from '@web/lib/mqtt/publish';
import { useLiveRooms } from '@web/lib/mqtt/room-store';
import { useEffect, useMemo, useRef, useState } from 'react';
import { BulkRevokeDialog } from './bulk-revoke-dialog';
import { grantEndInWords, grantState } from './grant-clock';
import { GrantMeter } from './grant-meter';
import { useNow } from '@web/lib/use-now';
import { roomErrorInWords } from '@web/lib/room-words';
import { When } from '@web/components/when';

const key = (g: Grant) => `${g.agentId}/${g.taskId}`;
const REFRESH_EVERY_MS = 1_000;

export function GrantsPanel({ roomId, did, canFacilitate }: { roomId: string; did: string; canFacilitate: boolean }) {
  const grants = useQuery(activeGrantsQuery(roomId));
  const all = useQuery(allGrantsQuery(roomId));
  const queryClient = useQueryClient();
  const now = useNow(1_000);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [confirming, setConfirming] = useState<Grant | null>(null);
  const revoke = useMutation({
    mutationFn: (g: { agentId: string; taskId: string }) => revokeGrant(roomId, did, g.agentId, g.taskId),
    onSettled: () => setConfirming(null),
  });

  // Spent counts change when the gateway republishes to public, grants on control: both arrive
  // as a new newest entry (older history pages go in at the other end and change nothing). The
  // console may hear a control message before the gateway has stored its effect, so ask again
  // shortly after. At most one refresh a second: at 200 msg/s the tail changes ten times a
  // second, and each refresh is two requests.
  const newest = useLiveRooms((s) => s.rooms[roomId]?.timeline.entries.at(-1)?.key ?? null);
  const live = grants.data ?? [];
  const anyEndedLocally = live.some((g) => !grantState(g, now).live);
  const lastRefresh = useRef(0);
  useEffect(() => {
    const refresh = () => {
      lastRefresh.current = Date.now();
      void queryClient.invalidateQueries({ queryKey: ['rooms', roomId, 'grants'] });
    };
    const wait = Math.max(0, lastRefresh.current + REFRESH_EVERY_MS - Date.now());
    const first = wait === 0 ? (refresh(), undefined) : setTimeout(refresh, wait);
    const again = setTimeout(refresh, wait + 750);
    return () => {
      clearTimeout(first);
      clearTimeout(again);
    };
  }, [newest, anyEndedLocally, queryClient, roomId]);

  const history = useMemo(() => {
    const byTask = new Map<string, Grant[]>();
    for (const g of all.data ?? []) if (g.endedAt !== null) byTask.set(g.taskId, [...(byTask.get(g.taskId) ?? []), g]);
    return [...byTask.entries()].sort(
      (a, b) => Math.max(...b[1].map((g) => g.endedAt ?? 0)) - Math.max(...a[1].map((g) => g.endedAt ?? 0)),
    );
  }, [all.data]);

  const liveNow = live.filter((g) => grantState(g, now).live);
  return (
    <section
      aria-labelledby="grants-heading"
      className="rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <h2 id="grants-heading" className="text-sm font-semibold">
          Active mic grants
        </h2>
        <Button
          size="sm"
          variant="ghost"
          className="ml-auto text-rose-700! dark:text-rose-300!"
          disabled={!canFacilitate || liveNow.length === 0}
          onClick={() => setBulkOpen(true)}
        >
          Revoke every mic…
        </Button>
      </div>
      {!live.length ? (
        <p className="px-4 py-3 text-sm text-slate-500 dark:text-slate-400">
          {grants.isPending ? 'Loading…' : 'Nobody holds the mic.'}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {live.map((g) => {
            const ended = !grantState(g, now).live;
            return (
              <li
                key={key(g)}
                className={`flex items-center gap-2 px-4 py-2 text-sm ${ended ? 'opacity-60' : ''}`}
                data-testid="active-grant"
                data-task-id={g.taskId}
              >
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">
                    {displayText(g.agentId)}{' '}
                    <span className="text-xs font-normal text-slate-600 dark:text-slate-400">
                      for <TaskName roomId={roomId} taskId={g.taskId} />
                    </span>
                  </p>
                  <GrantMeter grant={g} now={now} />
                  <p className="text-xs text-slate-500 dark:text-slate-400" title={g.allowedTypes.join(', ')}>
                    {g.allowedTypes.map((t) => messageTypeWords(t)).join(', ')}
                  </p>
                </div>
                <Button
                  size="sm"
                  disabled={!canFacilitate || ended}
                  busy={revoke.isPending && revoke.variables?.taskId === g.taskId}
                  onClick={() => setConfirming(g)}
                  aria-label={`Revoke mic of ${g.agentId} for ${g.taskId}…`}
                >
                  Revoke…
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {revoke.isError ? (
        <p role="alert" className="px-4 pb-2 text-xs text-rose-700 dark:text-rose-300">
          Revoke failed: {roomErrorInWords(revoke.error)}
        </p>
      ) : null}
      {history.length ? (
        <details
          className="border-t border-slate-200 px-4 py-2 text-sm dark:border-slate-800"
          data-testid="grant-history"
        >
          <summary className="cursor-pointer text-xs font-medium text-slate-600 dark:text-slate-300">
            Grant history ({history.length} {history.length === 1 ? 'task' : 'tasks'})
          </summary>
          <ul className="mt-2 space-y-2">
            {history.map(([taskId, list]) => (
              <li key={taskId} data-testid="grant-history-task">
                <p className="text-xs text-slate-700 dark:text-slate-300">
                  <TaskName roomId={roomId} taskId={taskId} />
                </p>
                <ul className="ml-3 text-xs text-slate-500 dark:text-slate-400">
                  {list.map((g) => (
                    <li key={g.grantMessageId} data-testid="grant-history-entry">
                      {g.agentId}: {g.spent}/{g.maxMessages} used, {grantEndInWords(g.endReason ?? 'ended')} at{' '}
                      <When at={(g.endedAt ?? 0) * (g.endedAt && g.endedAt < 1e11 ? 1000 : 1)} />
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={`Revoke ${confirming?.agentId ?? 'the agent'}’s mic?`}
        confirmLabel="Revoke the mic"
        busy={revoke.isPending}
        onConfirm={() => confirming && revoke.mutate(confirming)}
      >
        {confirming ? (
          <p>
            {confirming.agentId} can no longer post for <TaskName roomId={roomId} taskId={confirming.taskId} plain />,
            with {Math.max(0, confirming.maxMessages - confirming.spent)} of its {confirming.maxMessages} messages
            unused. This cannot be undone: to let it speak again, grant the mic anew.
          </p>
        ) : null}
      </ConfirmDialog>
      <BulkRevokeDialog roomId={roomId} did={did} grants={live} now={now} open={bulkOpen} onOpenChange={setBulkOpen} />
    </section>
  );
}
