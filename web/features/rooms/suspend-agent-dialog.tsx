// Suspending an agent from a room's health panel: one dialog asking why, with a reason already
// written that the facilitator may change. The server ends the agent's grants and connections
// (POST /api/agent-accounts/{agentId}/suspend); what the agent is refused afterwards is said there.
import { useMutation } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { TextField } from '@web/components/ui/text-field';
import { suspendAgent } from '@web/lib/api/agent-accounts';
import { roomErrorInWords } from '@web/lib/room-words';
import { useState, type FormEvent } from 'react';

export const SUSPEND_REASON = 'Repeated rejects in this room';
const MAX_REASON = 300;

export function SuspendAgentDialog({
  agentId,
  onClose,
  onSuspended,
}: {
  /** The agent to suspend; null: the dialog is closed. */
  agentId: string | null;
  onClose: () => void;
  onSuspended: (agentId: string) => void;
}) {
  const [reason, setReason] = useState(SUSPEND_REASON);
  const suspend = useMutation({
    mutationFn: (v: { agentId: string; reason: string }) => suspendAgent(v.agentId, v.reason),
    onSuccess: (_answer, v) => {
      onSuspended(v.agentId);
      close();
    },
  });
  const close = () => {
    setReason(SUSPEND_REASON);
    suspend.reset();
    onClose();
  };
  const trimmed = reason.trim();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (agentId !== null && trimmed) suspend.mutate({ agentId, reason: trimmed });
  };
  return (
    <Dialog
      open={agentId !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={`Suspend ${agentId ?? ''}`}
      description="It is disconnected, may not connect or publish until resumed, and its mic grants end. The reason is shown with the suspension."
    >
      <form onSubmit={submit} className="space-y-4">
        <TextField
          label="Reason"
          value={reason}
          maxLength={MAX_REASON}
          required
          onChange={(e) => setReason(e.target.value)}
          error={suspend.isError ? roomErrorInWords(suspend.error) : undefined}
        />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={!trimmed} busy={suspend.isPending}>
            Suspend
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
