// Assign a task with its mic grant. Observers see the form disabled. The agent is picked from those
// seen in the room; an id the console does not know is asked about before anything is sent, and
// the goal, deadline and grant are checked first (assign-checks.ts, decisions-web.md §26).
import { firstWords } from '@web/lib/names/item-names';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGE_TYPES, type MessageType } from '@shared/aor/payloads';
import { fitsLimit } from '@shared/contract/text-limits';
import { Button } from '@web/components/ui/button';
import { CharCounter } from '@web/components/ui/char-counter';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { agentAccountPageQuery } from '@web/lib/api/agent-accounts';
import { roomAgentsQuery } from '@web/lib/api/rooms-agents';
import { displayText } from '@web/lib/display-text';
import { assignTask, newTaskId } from '@web/lib/mqtt/publish';
import { roomErrorInWords } from '@web/lib/room-words';
import { useId, useState, type FormEvent } from 'react';
import { assignProblem, isKnownAgent, MAX_GRANT_MINUTES } from './assign-checks';

const DEFAULT_TYPES: MessageType[] = ['ack', 'progress', 'finding', 'result'];

export function AssignTaskForm({ roomId, did, disabled }: { roomId: string; did: string; disabled: boolean }) {
  const agents = useQuery(roomAgentsQuery(roomId));
  const listId = useId();
  const goalCount = useId();
  const [agentId, setAgentId] = useState('');
  const [goal, setGoal] = useState('');
  const [format, setFormat] = useState('');
  const [deadlineMin, setDeadlineMin] = useState('');
  const [types, setTypes] = useState<MessageType[]>(DEFAULT_TYPES);
  const [budget, setBudget] = useState('5');
  const [expiryMin, setExpiryMin] = useState('15');
  const [error, setError] = useState<string | null>(null);
  /** The unknown agent id the operator was asked about; sending it again confirms. */
  const [questioned, setQuestioned] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const present = (agents.data ?? []).map((a) => a.agentId);
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
      setQuestioned(null);
    },
  });

  /**
   * Agents holding a credential count as known too: one may take its task before its first
   * heartbeat. The first agent whose id starts with this one is that agent, when it has one.
   */
  const credentialed = async (id: string): Promise<string[]> => {
    const page = await queryClient
      .fetchQuery({ ...agentAccountPageQuery({ search: id, limit: 1 }), retry: false, staleTime: 10_000 })
      .catch(() => null);
    return page?.agents.map((a) => a.agentId) ?? [];
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const problem = assignProblem({ agentId, goal, format, deadlineMin, typesChosen: types.length, budget, expiryMin });
    if (problem) return setError(problem);
    const id = agentId.trim();
    if (questioned !== id && !isKnownAgent(id, present) && !isKnownAgent(id, [], await credentialed(id)))
      return setQuestioned(id);
    assign.mutate();
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-labelledby="assign-heading"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      noValidate
    >
      <h2 id="assign-heading" className="text-sm font-semibold">
        Assign task
      </h2>
      <fieldset disabled={disabled} className="min-w-0 space-y-3">
        <TextField
          label="Agent"
          list={listId}
          value={agentId}
          onChange={(e) => {
            setAgentId(e.target.value);
            setQuestioned(null);
          }}
          hint={
            present.length ? `In this room: ${present.map(displayText).join(', ')}` : 'No agent seen in this room yet.'
          }
          autoComplete="off"
        />
        <datalist id={listId}>
          {present.map((id) => (
            <option key={id} value={id} />
          ))}
        </datalist>
        {questioned !== null && questioned === agentId.trim() ? (
          <Notice tone="warn" title={`No agent “${displayText(questioned)}” is known here`}>
            It has not been seen in this room and holds no credential the console knows of. Check the id; if the agent
            will connect later, assign again to send it anyway.
          </Notice>
        ) : null}
        <div>
          <TextField label="Goal" value={goal} onChange={(e) => setGoal(e.target.value)} aria-describedby={goalCount} />
          <div className="mt-1 text-right">
            <CharCounter kind="message" text={goal.trim()} id={goalCount} />
          </div>
        </div>
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
            max={MAX_GRANT_MINUTES}
            value={expiryMin}
            onChange={(e) => setExpiryMin(e.target.value)}
            hint="At most 30 days."
          />
        </div>
        {error || assign.isError ? (
          <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
            {error ?? roomErrorInWords(assign.error)}
          </p>
        ) : assign.isSuccess ? (
          <p
            role="status"
            data-testid="task-sent"
            data-task-id={assign.data.task.payload.task_id}
            className="text-sm text-emerald-700 dark:text-emerald-300"
          >
            Task “{firstWords(assign.data.task.payload.goal, 10)}” sent to{' '}
            {displayText(assign.data.grant.payload.agent_id)}, with its mic.
          </p>
        ) : null}
        <Button type="submit" variant="primary" busy={assign.isPending} disabled={!fitsLimit('message', goal.trim())}>
          {questioned !== null && questioned === agentId.trim() ? 'Assign anyway' : 'Assign with mic'}
        </Button>
      </fieldset>
    </form>
  );
}
