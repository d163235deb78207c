// The room's history retention in the header: what the server keeps, and for a facilitator a
// dialog to change it (PATCH /api/rooms/:id {retention}; docs/decisions-server.md §25).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { roomQuery } from '@web/lib/api/rooms-get';
import type { Retention } from '@shared/contract/rooms';
import { setRetention } from '@web/lib/api/rooms-retention';
import { useState, type FormEvent } from 'react';
import { readRetentionForm, retentionInWords, type RetentionForm } from './retention-words';
import { roomErrorInWords } from '@web/lib/room-words';

export function RetentionSetting({
  roomId,
  retention,
  canEdit,
}: {
  roomId: string;
  retention: Retention | undefined;
  canEdit: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <span
      className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400"
      data-testid="retention-setting"
    >
      <span>{retentionInWords(retention)}</span>
      {canEdit ? (
        <Button variant="link" size="sm" onClick={() => setOpen(true)}>
          Change
        </Button>
      ) : null}
      {open ? <RetentionDialog roomId={roomId} retention={retention} onClose={() => setOpen(false)} /> : null}
    </span>
  );
}

function RetentionDialog({
  roomId,
  retention,
  onClose,
}: {
  roomId: string;
  retention: Retention | undefined;
  onClose: () => void;
}) {
  const [messages, setMessages] = useState(retention?.maxMessages?.toString() ?? '');
  const [days, setDays] = useState(retention?.maxAgeDays?.toString() ?? '');
  const [read, setRead] = useState<RetentionForm | null>(null);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (next: Retention | null) => setRetention(roomId, next),
    onSuccess: (updated) => {
      queryClient.setQueryData(roomQuery(roomId).queryKey, updated);
      void queryClient.invalidateQueries({ queryKey: ['rooms'], exact: true });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = readRetentionForm(messages, days);
    setRead(form);
    if (form.ok) save.mutate(form.retention);
  };
  const errors = read && !read.ok ? read : undefined;
  return (
    <Dialog
      open
      onOpenChange={(o) => (o ? undefined : onClose())}
      title="History retention"
      description="Every minute the server deletes this room's oldest messages beyond these limits. The audit log, review items and grants are always kept."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label="Keep the newest messages"
          inputMode="numeric"
          placeholder="no limit"
          value={messages}
          onChange={(e) => (setMessages(e.target.value), setRead(null))}
          error={errors?.messagesError}
          hint="Empty: any number."
          autoComplete="off"
        />
        <TextField
          label="Keep messages for (days)"
          inputMode="numeric"
          placeholder="no limit"
          value={days}
          onChange={(e) => (setDays(e.target.value), setRead(null))}
          error={errors?.daysError}
          hint="Empty: any age. Both empty keeps all history."
          autoComplete="off"
        />
        {save.isError ? (
          <Notice tone="error" title="Retention was not changed">
            {roomErrorInWords(save.error)}
          </Notice>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={save.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
