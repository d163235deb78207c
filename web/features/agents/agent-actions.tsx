// A facilitator's actions on one agent: Disconnect now and Resume at once; Rotate after a
// confirmation (then the new password once), Suspend with a required reason (the agent and its
// rooms read it in the revoke that ends each grant), Remove once its id is typed back.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { SuspendReason } from '@shared/contract/agents';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { TextField } from '@web/components/ui/text-field';
import {
  AGENT_ACCOUNTS_KEY,
  disconnectAgent,
  removeAgent,
  resumeAgent,
  rotateAgent,
  suspendAgent,
  type AgentAccount,
} from '@web/lib/api/agent-accounts';
import { PasswordOnce } from '@web/components/agents/password-once';
import { errorInWords } from '@web/lib/api/error-words';

type Open = 'rotate' | 'suspend' | 'remove' | undefined;

function Failure({ error }: { error: Error | null }) {
  return error ? (
    <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
      {errorInWords(error)}
    </p>
  ) : null;
}

export function AgentActions({ agent }: { agent: AgentAccount }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Open>();
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: AGENT_ACCOUNTS_KEY });
  const id = agent.agentId;
  const disconnect = useMutation({ mutationFn: () => disconnectAgent(id), onSuccess: refresh });
  const resume = useMutation({ mutationFn: () => resumeAgent(id), onSuccess: refresh });
  const rotate = useMutation({ mutationFn: () => rotateAgent(id), onSuccess: refresh });
  const suspend = useMutation({
    mutationFn: (why: string) => suspendAgent(id, why),
    onSuccess: () => {
      refresh();
      close();
    },
  });
  const remove = useMutation({ mutationFn: () => removeAgent(id), onSuccess: refresh });
  const close = () => {
    setOpen(undefined);
    setReason('');
    setTyped('');
    rotate.reset();
    suspend.reset();
  };
  const checkedReason = SuspendReason.safeParse(reason);
  const submitSuspend = (e: FormEvent) => {
    e.preventDefault();
    if (checkedReason.success) suspend.mutate(checkedReason.data);
  };
  const dialog = (title: string, body: ReactNode, description?: string) => (
    <Dialog
      open
      onOpenChange={(next) => (next ? undefined : close())}
      title={title}
      {...(description ? { description } : {})}
    >
      {body}
    </Dialog>
  );
  return (
    <div className="flex flex-wrap gap-1.5">
      <Button
        size="sm"
        busy={disconnect.isPending}
        onClick={() => disconnect.mutate()}
        aria-label={`Disconnect ${id} now`}
      >
        Disconnect now
      </Button>
      {agent.suspended ? (
        <Button size="sm" busy={resume.isPending} onClick={() => resume.mutate()} aria-label={`Resume ${id}`}>
          Resume
        </Button>
      ) : (
        <Button size="sm" onClick={() => setOpen('suspend')} aria-label={`Suspend ${id}`}>
          Suspend
        </Button>
      )}
      <Button size="sm" onClick={() => setOpen('rotate')} aria-label={`Rotate the password of ${id}`}>
        Rotate
      </Button>
      <Button size="sm" onClick={() => setOpen('remove')} aria-label={`Remove ${id}`}>
        Remove
      </Button>
      {disconnect.isSuccess && disconnect.data.disconnected !== null ? (
        <span role="status" className="self-center text-xs text-slate-600 dark:text-slate-400">
          Closed {disconnect.data.disconnected} connection{disconnect.data.disconnected === 1 ? '' : 's'}
        </span>
      ) : null}
      <Failure error={disconnect.error ?? resume.error} />

      {open === 'rotate'
        ? dialog(
            rotate.data ? `New password for ${id}` : `Rotate the password of ${id}?`,
            rotate.data ? (
              <>
                <PasswordOnce issued={rotate.data} />
                <div className="mt-4 flex items-center justify-end gap-3">
                  <p className="text-xs text-slate-600 dark:text-slate-400">The password won&apos;t be shown again.</p>
                  <Button variant="primary" onClick={close}>
                    I have copied it
                  </Button>
                </div>
              </>
            ) : (
              <>
                <Failure error={rotate.error} />
                <div className="mt-4 flex justify-end gap-2">
                  <Button onClick={close}>Keep the password</Button>
                  <Button variant="primary" busy={rotate.isPending} onClick={() => rotate.mutate()}>
                    Rotate
                  </Button>
                </div>
              </>
            ),
            rotate.data ? undefined : 'Its open connections close, and the old password stops working at once.',
          )
        : null}

      {open === 'suspend'
        ? dialog(
            `Suspend ${id}?`,
            <form onSubmit={submitSuspend} className="space-y-4">
              <TextField
                label="Reason"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                hint="The agent and its rooms read this."
                maxLength={300}
                required
              />
              <Failure error={suspend.error} />
              <div className="flex justify-end gap-2">
                <Button onClick={close}>Cancel</Button>
                <Button type="submit" variant="primary" busy={suspend.isPending} disabled={!checkedReason.success}>
                  Suspend
                </Button>
              </div>
            </form>,
            'Its connections close, it cannot connect until resumed, and every grant it holds ends with this reason.',
          )
        : null}

      {open === 'remove'
        ? dialog(
            `Remove ${id}?`,
            <>
              <TextField
                label={`Type ${id} to confirm`}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="off"
                spellCheck={false}
              />
              <Failure error={remove.error} />
              <div className="mt-4 flex justify-end gap-2">
                <Button onClick={close}>Keep it</Button>
                <Button
                  variant="primary"
                  busy={remove.isPending}
                  disabled={typed !== id}
                  onClick={() => remove.mutate(undefined, { onSuccess: close })}
                >
                  Remove credential
                </Button>
              </div>
            </>,
            'Its connections close and its password stops working. This cannot be undone.',
          )
        : null}
    </div>
  );
}
