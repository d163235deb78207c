// Assign a task with its mic grant, and speak in the room (with @agent completion). Observers see
// the forms disabled.
import { useMutation, useQuery } from '@tanstack/react-query';
import { MESSAGE_TYPES, type MessageType } from '@shared/aor/payloads';
import { Button } from '@web/components/ui/button';
import { TextField } from '@web/components/ui/text-field';
import { roomAgentsQuery } from '@web/lib/api/rooms-agents';
import { assignTask, newTaskId, say } from '@web/lib/mqtt/publish';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { completeMention, matchAgents, mentionAt } from './mention-complete';
import { roomErrorInWords } from '@web/lib/room-words';

const DEFAULT_TYPES: MessageType[] = ['ack', 'progress', 'finding', 'result'];

export function AssignTaskForm({ roomId, did, disabled }: { roomId: string; did: string; disabled: boolean }) {
  const agents = useQuery(roomAgentsQuery(roomId));
  const listId = useId();
  const [agentId, setAgentId] = useState('');
  const [goal, setGoal] = useState('');
  const [format, setFormat] = useState('');
  const [deadlineMin, setDeadlineMin] = useState('');
  const [types, setTypes] = useState<MessageType[]>(DEFAULT_TYPES);
  const [budget, setBudget] = useState('5');
  const [expiryMin, setExpiryMin] = useState('15');
  const [error, setError] = useState<string | null>(null);
  const assign = useMutation({
    mutationFn: () => {
      const now = Math.floor(Date.now() / 1000);
      return assignTask(roomId, did, {
        agentId: agentId.trim(),
        taskId: newTaskId(),
        goal: goal.trim(),
        ...(format.trim() ? { format: format.trim() } : {}),
        ...(deadlineMin ? { deadline: now + Math.round(Number(deadlineMin) * 60) } : {}),
        allowedTypes: types,
        maxMessages: Number(budget),
        expiresAt: now + Math.round(Number(expiryMin) * 60),
      });
    },
    onSuccess: () => {
      setGoal('');
      setFormat('');
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!agentId.trim()) return setError('Choose the agent to assign.');
    if (!goal.trim()) return setError('Say what the task is (goal).');
    if (types.length === 0) return setError('Allow at least one message type.');
    if (!(Number(budget) >= 1 && Number(budget) <= 10_000 && Number.isInteger(Number(budget))))
      return setError('The budget is a whole number from 1 to 10000.');
    if (!(Number(expiryMin) > 0)) return setError('The grant must last more than 0 minutes.');
    assign.mutate();
  };

  return (
    <form
      onSubmit={submit}
      aria-labelledby="assign-heading"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      noValidate
    >
      <h2 id="assign-heading" className="text-sm font-semibold">
        Assign task
      </h2>
      <fieldset disabled={disabled} className="space-y-3">
        <TextField
          label="Agent"
          list={listId}
          value={agentId}
          onChange={(e) => setAgentId(e.target.value)}
          autoComplete="off"
        />
        <datalist id={listId}>
          {agents.data?.map((a) => (
            <option key={a.agentId} value={a.agentId} />
          ))}
        </datalist>
        <TextField label="Goal" value={goal} onChange={(e) => setGoal(e.target.value)} />
        <div className="grid grid-cols-2 gap-3">
          <TextField
            label="Format (optional)"
            value={format}
            onChange={(e) => setFormat(e.target.value)}
            placeholder="e.g. 3 bullets"
          />
          <TextField
            label="Deadline in minutes (optional)"
            type="number"
            min={1}
            value={deadlineMin}
            onChange={(e) => setDeadlineMin(e.target.value)}
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">
            Mic grant: allowed message types
          </legend>
          <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm">
            {MESSAGE_TYPES.map((t) => (
              <label key={t} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={types.includes(t)}
                  onChange={(e) => setTypes((old) => (e.target.checked ? [...old, t] : old.filter((x) => x !== t)))}
                />
                <span className="font-mono text-xs">{t}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid grid-cols-2 gap-3">
          <TextField
            label="Budget (messages)"
            type="number"
            min={1}
            max={10000}
            value={budget}
            onChange={(e) => setBudget(e.target.value)}
          />
          <TextField
            label="Grant expires in (minutes)"
            type="number"
            min={1}
            value={expiryMin}
            onChange={(e) => setExpiryMin(e.target.value)}
          />
        </div>
        {error || assign.isError ? (
          <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
            {error ?? roomErrorInWords(assign.error)}
          </p>
        ) : assign.isSuccess ? (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
            Task {assign.data.task.payload.task_id} sent to {assign.data.grant.payload.agent_id}, with its mic.
          </p>
        ) : null}
        <Button type="submit" variant="primary" busy={assign.isPending}>
          Assign with mic
        </Button>
      </fieldset>
    </form>
  );
}

/** Text put into the say box from elsewhere (Reply to a question); `n` makes a repeat count. */
export interface SayDraft {
  readonly text: string;
  readonly n: number;
}

/**
 * Speaks as the facilitator on public (AOR §5.1), with `@agent` completion from the agents present:
 * a combobox whose list opens on "@", moves with the arrow keys and takes a choice with Enter or
 * Tab. Answering a clarifying question (§6.2 "User replies with say") is a say that mentions the
 * asker; Reply on the question fills that in here.
 */
export function SayBox({
  roomId,
  did,
  disabled,
  draft,
}: {
  roomId: string;
  did: string;
  disabled: boolean;
  draft?: SayDraft | null;
}) {
  const agents = useQuery(roomAgentsQuery(roomId));
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const send = useMutation({ mutationFn: (t: string) => say(roomId, did, t), onSuccess: () => setText('') });

  useEffect(() => {
    if (!draft || !input.current) return;
    setText(draft.text);
    setCaret(draft.text.length);
    input.current.focus();
    input.current.setSelectionRange(draft.text.length, draft.text.length);
  }, [draft]);

  const at = mentionAt(text, caret);
  const ids = useMemo(() => (agents.data ?? []).map((a) => a.agentId), [agents.data]);
  const options = at && dismissed !== at.start ? matchAgents(ids, at.query) : [];
  const open = options.length > 0 && !disabled;
  const current = Math.min(active, Math.max(0, options.length - 1));

  const choose = (agentId: string) => {
    if (!at) return;
    const done = completeMention(text, caret, at, agentId);
    setText(done.text);
    setCaret(done.caret);
    setActive(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(done.caret, done.caret));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!open) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((current + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      choose(options[current]!);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setDismissed(at?.start ?? null);
    }
  };

  const track = (el: HTMLInputElement) => setCaret(el.selectionStart ?? el.value.length);
  const listId = `${id}-mentions`;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) send.mutate(text.trim());
      }}
      className="flex items-end gap-2"
    >
      <div className="relative flex-1">
        <label htmlFor={`${id}-say`} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Say in the room
        </label>
        <input
          ref={input}
          id={`${id}-say`}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open ? `${listId}-${current}` : undefined}
          aria-describedby={`${id}-say-hint`}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
          value={text}
          placeholder="Type @ to mention an agent"
          disabled={disabled}
          autoComplete="off"
          onChange={(e) => {
            setText(e.target.value);
            track(e.target);
            setActive(0);
            setDismissed(null);
          }}
          onSelect={(e) => track(e.currentTarget)}
          onKeyDown={onKeyDown}
          onBlur={() => setDismissed(at?.start ?? null)}
          onFocus={() => setDismissed(null)}
        />
        <p id={`${id}-say-hint`} className="sr-only">
          Type @ and the start of an agent id to mention it; arrow keys choose, Enter or Tab takes the choice.
        </p>
        <ul
          id={listId}
          role="listbox"
          aria-label="Agents to mention"
          hidden={!open}
          className="absolute bottom-full left-0 z-20 mb-1 max-h-56 w-72 overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {options.map((agentId, i) => (
            <li
              key={agentId}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === current}
              // mousedown, not click: the input keeps focus, and its blur does not close the list first.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(agentId);
              }}
              className={`cursor-pointer px-3 py-1 font-mono text-xs ${i === current ? 'bg-teal-700 text-white dark:bg-teal-600' : 'hover:bg-slate-100 dark:hover:bg-slate-800'}`}
            >
              @{agentId}
            </li>
          ))}
        </ul>
      </div>
      <Button type="submit" disabled={disabled || !text.trim()} busy={send.isPending}>
        Say
      </Button>
      {send.isError ? (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {roomErrorInWords(send.error)}
        </p>
      ) : null}
    </form>
  );
}
