// The reason a facilitator gives when rejecting a review candidate: Enter rejects, Esc cancels.
// Shared by a room's review queue and the inbox.
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { TextField } from '@web/components/ui/text-field';
import { useState, type RefObject } from 'react';

export function RejectReasonDialog({
  agentId,
  onReject,
  onClose,
  returnFocusTo,
}: {
  /** The candidate's agent while the dialog is open; null closes it. */
  agentId: string | null;
  onReject: (reason: string) => void;
  onClose: () => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const [reason, setReason] = useState('');
  // A fresh reason for each candidate (React's "adjusting state when a prop changes").
  const [reasonFor, setReasonFor] = useState(agentId);
  if (reasonFor !== agentId) {
    setReasonFor(agentId);
    setReason('');
  }
  return (
    <Dialog
      open={agentId !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Reject this candidate"
      description={
        agentId
          ? `${agentId} is told on the control channel that a facilitator declined it, with your reason.`
          : undefined
      }
      {...(returnFocusTo ? { returnFocusTo } : {})}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!reason.trim()) return;
          onReject(reason.trim());
        }}
        className="space-y-3"
      >
        <TextField
          label="Reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={500}
          autoComplete="off"
          hint="Enter rejects; Esc cancels."
        />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={!reason.trim()}>
            Reject
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
