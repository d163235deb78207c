// "Revoke every mic in this room": lists exactly the live grants it will end,
// then publishes one mic_revoke per grant and shows how each went.
import { TaskName } from '@web/components/task-name';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import type { Grant } from '@web/lib/api/rooms-grants';
import { revokeGrant } from '@web/lib/mqtt/publish';
import { useState } from 'react';
import { grantState } from './grant-clock';
import { countdownShort } from './grant-meter';
import { roomErrorInWords } from '@web/lib/room-words';

type Outcome =
  { readonly grant: Grant; readonly ok: true } | { readonly grant: Grant; readonly ok: false; readonly error: string };

export function BulkRevokeDialog({
  roomId,
  did,
  grants,
  now,
  open,
  onOpenChange,
}: {
  roomId: string;
  did: string;
  grants: readonly Grant[];
  now: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  // What the operator confirmed: fixed when the dialog opens, so a grant arriving meanwhile is not swept up.
  const [targets, setTargets] = useState<readonly Grant[]>([]);
  const [outcomes, setOutcomes] = useState<readonly Outcome[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setTargets(grants.filter((g) => grantState(g, now).live));
      setOutcomes(null);
    }
  }

  const confirm = async () => {
    setBusy(true);
    const results: Outcome[] = [];
    for (const grant of targets) {
      try {
        await revokeGrant(roomId, did, grant.agentId, grant.taskId, 'every mic in the room revoked by a facilitator');
        results.push({ grant, ok: true });
      } catch (error) {
        results.push({ grant, ok: false, error: roomErrorInWords(error) });
      }
    }
    setOutcomes(results);
    setBusy(false);
  };

  const done = outcomes?.filter((o) => o.ok).length ?? 0;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !busy && onOpenChange(next)}
      title="Revoke every mic in this room"
      description={
        outcomes
          ? undefined
          : targets.length
            ? `This ends the ${targets.length === 1 ? 'grant' : `${targets.length} grants`} below at once. Agents can no longer post for these tasks.`
            : 'Nobody holds the mic: there is nothing to revoke.'
      }
    >
      {targets.length ? (
        <table className="w-full text-left text-sm" aria-label="Grants to revoke">
          <thead className="text-xs text-slate-500 dark:text-slate-400">
            <tr>
              <th className="py-1 pr-2 font-medium">Agent</th>
              <th className="py-1 pr-2 font-medium">Task</th>
              <th className="py-1 pr-2 font-medium">Used</th>
              <th className="py-1 pr-2 font-medium">Time left</th>
              {outcomes ? <th className="py-1 font-medium">Outcome</th> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {targets.map((g) => {
              const outcome = outcomes?.find((o) => o.grant === g);
              return (
                <tr key={`${g.agentId}/${g.taskId}`} data-testid="bulk-revoke-row">
                  <td className="py-1 pr-2 font-medium">{g.agentId}</td>
                  <td className="py-1 pr-2 text-xs">
                    <TaskName roomId={roomId} taskId={g.taskId} plain />
                  </td>
                  <td className="py-1 pr-2 tabular-nums">
                    {g.spent}/{g.maxMessages}
                  </td>
                  <td className="py-1 pr-2 tabular-nums">
                    {countdownShort(g.expiresAt, g.expiresAt - now / 1000, now)}
                  </td>
                  {outcomes ? (
                    <td
                      className={`py-1 ${outcome?.ok ? 'text-emerald-700 dark:text-emerald-300' : 'text-rose-700 dark:text-rose-300'}`}
                    >
                      {outcome?.ok ? 'Revoked' : `Failed: ${outcome && !outcome.ok ? outcome.error : '?'}`}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {outcomes ? (
        <p role="status" className="mt-3 text-sm">
          Revoked {done} of {outcomes.length} {outcomes.length === 1 ? 'grant' : 'grants'}.
          {done < outcomes.length ? ' Try the failed ones again once the room shows “Live”.' : ''}
        </p>
      ) : null}
      <div className="mt-4 flex justify-end gap-2">
        {outcomes ? (
          <Button variant="primary" onClick={() => onOpenChange(false)}>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button
              variant="primary"
              className="bg-rose-700! hover:bg-rose-800! dark:bg-rose-500!"
              busy={busy}
              disabled={!targets.length}
              onClick={() => void confirm()}
            >
              Revoke {targets.length} {targets.length === 1 ? 'mic' : 'mics'}
            </Button>
          </>
        )}
      </div>
    </Dialog>
  );
}
