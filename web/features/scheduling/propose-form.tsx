// Start a scheduling thread (OACoP §3.1): title, duration, window, the directory's OACoP agents
// (required or optional), a room, an optional location. Signed in this browser and posted to
// every participant (one carrier each).
import { DayField } from '@web/components/ui/day-field';
import { minutesWords } from '@web/lib/time-words';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import type { ProposeCollaboration } from '@shared/oacop/messages';
import { ApiError } from '@web/lib/api/http';
import type { OacopAgent } from '@web/lib/oacop/oacop-directory';
import { oacopErrorWords } from '@web/lib/oacop/oacop-words';
import { sendCarriers } from '@web/lib/oacop/send-carriers';
import { zoneCity } from '@web/lib/oacop/zone-labels';
import { fitsLimit } from '@shared/contract/text-limits';
import { CharCounter } from '@web/components/ui/char-counter';
import { displayText } from '@web/lib/display-text';
import { useState, type FormEvent } from 'react';
import { buildProposal, defaultWindow } from './proposal';

type Choice = 'skip' | 'optional' | 'required';

/** The clock a proposal's window is checked against, read when the form is sent. */
const nowMs = () => Date.now();

export function ProposeForm({ agents }: { agents: readonly OacopAgent[] }) {
  const people = agents.filter((a) => a.kind === 'person');
  const rooms = agents.filter((a) => a.kind === 'resource');
  const [title, setTitle] = useState('');
  const [minutes, setMinutes] = useState('60');
  const [initial] = useState(() => defaultWindow(Date.now()));
  const [startDate, setStartDate] = useState(initial.startDate);
  const [days, setDays] = useState(String(initial.days));
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [room, setRoom] = useState('');
  const [location, setLocation] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const choice = (did: string): Choice => choices[did] ?? 'required';

  const send = useMutation({
    mutationFn: async (message: ProposeCollaboration) => {
      await sendCarriers(message, message.constraints?.participants ?? []);
      return message.threadId;
    },
    onSuccess: async (threadId) => {
      await queryClient.invalidateQueries({ queryKey: ['oacop', 'threads'] });
      await navigate({ to: '/scheduling/$threadId', params: { threadId } });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const roomAgent = rooms.find((r) => r.did === room);
    const built = buildProposal({
      threadId: `urn:uuid:${crypto.randomUUID()}`,
      title,
      minutes: Number(minutes),
      startDate,
      days: Number(days),
      required: people.filter((p) => choice(p.did) === 'required').map((p) => p.did),
      optional: people.filter((p) => choice(p.did) === 'optional').map((p) => p.did),
      room: roomAgent?.did,
      location: location.trim() || roomAgent?.name,
      now: nowMs(),
    });
    if (!built.ok) return setInputError(built.error.message);
    setInputError(null);
    send.mutate(built.value);
  };

  const sendError =
    send.error instanceof ApiError || (send.error && 'code' in send.error)
      ? (send.error as { code: string; message: string })
      : null;

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Propose a meeting"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 className="text-base font-semibold">Propose a meeting</h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          placeholder="Quarterly planning"
          hint={<CharCounter kind="line" text={title.trim()} />}
        />
        <label className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Duration
          <select
            aria-label="Duration"
            value={minutes}
            onChange={(e) => setMinutes(e.target.value)}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
          >
            {['30', '45', '60', '90', '120'].map((m) => (
              <option key={m} value={m}>
                {minutesWords(Number(m))}
              </option>
            ))}
          </select>
        </label>
        <DayField label="Window starts (UTC date)" value={startDate} onChange={setStartDate} />
        <TextField
          label="Window length (days)"
          type="number"
          min={1}
          max={14}
          value={days}
          onChange={(e) => setDays(e.target.value)}
        />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">Participants</legend>
        {people.length === 0 ? (
          <p className="mt-1 text-sm text-slate-500">
            No OACoP calendar agents in the directory yet: they appear once they register a manifest with the relay
            (when the server runs its demo, Ada, Bruno, Chitra and Room Atlas do).
          </p>
        ) : null}
        <ul className="mt-1 space-y-1">
          {people.map((p) => (
            <li key={p.did} className="flex items-center justify-between gap-3 text-sm">
              <span className="min-w-0">
                {displayText(p.name)}{' '}
                <span className="text-slate-500 dark:text-slate-400">({zoneCity(p.timeZone)})</span>
              </span>
              <select
                aria-label={`${p.name} attendance`}
                value={choice(p.did)}
                onChange={(e) => setChoices({ ...choices, [p.did]: e.target.value as Choice })}
                className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
              >
                <option value="required">Required</option>
                <option value="optional">Optional</option>
                <option value="skip">Not invited</option>
              </select>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Room
          <select
            aria-label="Room"
            value={room}
            onChange={(e) => setRoom(e.target.value)}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
          >
            <option value="">No room</option>
            {rooms.map((r) => (
              <option key={r.did} value={r.did}>
                {displayText(r.name)}
              </option>
            ))}
          </select>
        </label>
        <TextField
          label="Location (optional)"
          value={location}
          onChange={(e) => setLocation(e.target.value)}
          placeholder="The room's name, or a link"
        />
      </div>
      {inputError ? (
        <Notice tone="error" title="Check the form">
          {inputError}
        </Notice>
      ) : null}
      {sendError ? (
        <Notice tone="error" title="The proposal was refused">
          {oacopErrorWords(sendError.code, sendError.message)}
        </Notice>
      ) : null}
      <Button
        type="submit"
        variant="primary"
        busy={send.isPending}
        disabled={send.isPending || !fitsLimit('line', title.trim())}
      >
        Sign and propose
      </Button>
    </form>
  );
}
