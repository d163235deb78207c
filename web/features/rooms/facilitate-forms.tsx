// Assign a task with its mic grant, and speak in the room. Observers see the forms disabled.
import { useMutation, useQuery } from '@tanstack/react-query';
import { MESSAGE_TYPES, type MessageType } from '@shared/aor/payloads';
import { Button } from '@web/components/ui/button';
import { TextField } from '@web/components/ui/text-field';
import { roomAgentsQuery } from '@web/lib/api/rooms-agents';
import { assignTask, newTaskId, say } from '@web/lib/mqtt/publish';
import { useId, useState, type FormEvent } from 'react';
import { roomErrorInWords } from './words';

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
    if (!(Number(budget) >= 1 && Number(budget) <= 10_000 && Number.isInteger(Number(budget)))) return setError('The budget is a whole number from 1 to 10000.');
    if (!(Number(expiryMin) > 0)) return setError('The grant must last more than 0 minutes.');
    assign.mutate();
  };

  return (
    <form onSubmit={submit} aria-labelledby="assign-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900" noValidate>
      <h2 id="assign-heading" className="text-sm font-semibold">
        Assign task
      </h2>
      <fieldset disabled={disabled} className="space-y-3">
        <TextField label="Agent" list={listId} value={agentId} onChange={(e) => setAgentId(e.target.value)} autoComplete="off" />
        <datalist id={listId}>
          {agents.data?.map((a) => <option key={a.agentId} value={a.agentId} />)}
        </datalist>
        <TextField label="Goal" value={goal} onChange={(e) => setGoal(e.target.value)} />
        <div className="grid grid-cols-2 gap-3">
          <TextField label="Format (optional)" value={format} onChange={(e) => setFormat(e.target.value)} placeholder="e.g. 3 bullets" />
          <TextField label="Deadline in minutes (optional)" type="number" min={1} value={deadlineMin} onChange={(e) => setDeadlineMin(e.target.value)} />
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">Mic grant: allowed message types</legend>
          <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm">
            {MESSAGE_TYPES.map((t) => (
              <label key={t} className="flex items-center gap-1">
                <input type="checkbox" checked={types.includes(t)} onChange={(e) => setTypes((old) => (e.target.checked ? [...old, t] : old.filter((x) => x !== t)))} />
                <span className="font-mono text-xs">{t}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid grid-cols-2 gap-3">
          <TextField label="Budget (messages)" type="number" min={1} max={10000} value={budget} onChange={(e) => setBudget(e.target.value)} />
          <TextField label="Grant expires in (minutes)" type="number" min={1} value={expiryMin} onChange={(e) => setExpiryMin(e.target.value)} />
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

export function SayBox({ roomId, did, disabled }: { roomId: string; did: string; disabled: boolean }) {
  const [text, setText] = useState('');
  const send = useMutation({ mutationFn: (t: string) => say(roomId, did, t), onSuccess: () => setText('') });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) send.mutate(text.trim());
      }}
      className="flex items-end gap-2"
    >
      <TextField label="Say in the room" className="flex-1" value={text} onChange={(e) => setText(e.target.value)} disabled={disabled} autoComplete="off" />
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
