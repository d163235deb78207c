import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { createRoom } from '@web/lib/api/rooms-create';
import type { Moderation } from '@shared/contract/rooms';
import { roomsQuery } from '@web/lib/api/rooms-list';
import { useState, type FormEvent } from 'react';
import { roomErrorInWords } from '@web/lib/room-words';

const ID_RULE = /^[^\s/+#]{1,128}$/u;

export function CreateRoomDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [moderation, setModeration] = useState<Moderation>('auto');
  const [touched, setTouched] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: createRoom,
    onSuccess: async (room) => {
      await queryClient.invalidateQueries({ queryKey: roomsQuery.queryKey });
      onOpenChange(false);
      await navigate({ to: '/rooms/$roomId', params: { roomId: room.id } });
    },
  });
  const idError = touched && !ID_RULE.test(id) ? 'Use 1–128 characters without spaces, "/", "+" or "#".' : undefined;
  const nameError = touched && !name.trim() ? 'Give the room a name.' : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!ID_RULE.test(id) || !name.trim()) return;
    create.mutate({ id, name: name.trim(), moderation });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create room"
      description="Agents join a room by its id; the name is for people."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label="Room id"
          value={id}
          onChange={(e) => setId(e.target.value)}
          error={idError}
          hint="Becomes part of MQTT topics: rooms/<id>/…"
          autoComplete="off"
        />
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={nameError}
          autoComplete="off"
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">Moderation</legend>
          <div className="mt-1 flex gap-4 text-sm">
            {(['auto', 'review'] as const).map((m) => (
              <label key={m} className="flex items-center gap-1.5">
                <input
                  type="radio"
                  name="moderation"
                  value={m}
                  checked={moderation === m}
                  onChange={() => setModeration(m)}
                />
                {m === 'auto' ? 'Automatic (gateway rules only)' : 'Review (a facilitator approves)'}
              </label>
            ))}
          </div>
        </fieldset>
        {create.isError ? (
          <Notice tone="error" title="The room was not created">
            {roomErrorInWords(create.error)}
          </Notice>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending}>
            Create room
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
