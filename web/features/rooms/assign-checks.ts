// The room's "Assign task" form, checked before anything is signed or sent (decisions-web.md
// §26): who it goes to, how long the text is, and whether the times make sense. Pure, so each
// rule is tested; the form shows the first problem in words.
import { MAX_GRANT_SECONDS, overLimitProblem } from '@shared/contract/text-limits';

export interface AssignDraft {
  readonly agentId: string;
  readonly goal: string;
  readonly format: string;
  /** Minutes from now, as typed; '' for none. */
  readonly deadlineMin: string;
  readonly typesChosen: number;
  readonly budget: string;
  readonly expiryMin: string;
}

/** The longest grant, in the form's unit. */
export const MAX_GRANT_MINUTES = MAX_GRANT_SECONDS / 60;

/** The first thing that stops the assignment, in words; undefined when it may go out. */
export function assignProblem(d: AssignDraft): string | undefined {
  if (!d.agentId.trim()) return 'Choose the agent to assign.';
  if (!d.goal.trim()) return 'Say what the task is (goal).';
  const goal = overLimitProblem('message', d.goal.trim());
  if (goal) return `The goal ${goal}.`;
  const format = overLimitProblem('line', d.format.trim());
  if (format) return `The format ${format}.`;
  if (d.deadlineMin.trim() !== '' && !(Number(d.deadlineMin) > 0))
    return 'The deadline would be in the past: give a number of minutes from now, more than 0.';
  if (d.typesChosen === 0) return 'Allow at least one message type.';
  const budget = Number(d.budget);
  if (!(budget >= 1 && budget <= 10_000 && Number.isInteger(budget)))
    return 'The budget is a whole number from 1 to 10000.';
  const expiry = Number(d.expiryMin);
  if (!(expiry > 0)) return 'The grant must last more than 0 minutes.';
  if (expiry > MAX_GRANT_MINUTES)
    return `A grant lasts at most 30 days (${MAX_GRANT_MINUTES.toLocaleString('en')} minutes): it lets the agent speak unreviewed, so a longer one is a mistake in the units. Assign again when the work goes on.`;
  return undefined;
}

/**
 * Whether `agentId` is one the console knows: seen in the room, or holding a credential. An
 * unknown id is asked about, not refused: an agent may connect after its task is sent.
 */
export function isKnownAgent(
  agentId: string,
  present: readonly string[],
  credentialed: readonly string[] = [],
): boolean {
  const id = agentId.trim();
  return present.includes(id) || credentialed.includes(id);
}
