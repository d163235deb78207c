// Which messages a demo agent posts for one task, chosen to fit the mic grant it was given:
// never more than `max_messages`, only `allowed_message_types` (AOR §5.3, §7). Pure, so the
// rule is tested on its own and the agent only performs it.
import type { MessageType } from '@shared/aor/payloads';

export interface PlanStep {
  readonly type: MessageType;
  /** Which progress line or finding set, for types that can appear twice. */
  readonly index: number;
}

/** What the agent would like to say, drawn from the seeded PRNG before it sees the grant. */
export interface Wishes {
  readonly ask: boolean;
  readonly secondFinding: boolean;
  readonly secondProgress: boolean;
  readonly risk: boolean;
  readonly artifact: boolean;
}

export interface GrantLimits {
  readonly maxMessages: number;
  readonly allowedMessageTypes: readonly MessageType[];
}

// In the order they are posted: the acknowledgement first (§6.1), the question early so the
// answer can shape the work (§6.2), the result last (§6.6).
const TIMELINE: readonly (PlanStep & { readonly priority: number; readonly wish?: keyof Wishes })[] = [
  { type: 'ack', index: 0, priority: 1 },
  { type: 'clarifying_question', index: 0, priority: 3, wish: 'ask' },
  { type: 'progress', index: 0, priority: 6 },
  { type: 'finding', index: 0, priority: 2 },
  { type: 'risk', index: 0, priority: 4, wish: 'risk' },
  { type: 'progress', index: 1, priority: 8, wish: 'secondProgress' },
  { type: 'finding', index: 1, priority: 7, wish: 'secondFinding' },
  { type: 'artifact_link', index: 0, priority: 5, wish: 'artifact' },
  { type: 'result', index: 0, priority: 0 },
];

/** The steps to post, in order: the most important that the grant allows, at most `maxMessages`. */
export function planSteps(grant: GrantLimits, wishes: Wishes): PlanStep[] {
  if (!Number.isInteger(grant.maxMessages) || grant.maxMessages < 0)
    throw new RangeError('maxMessages must be a whole number');
  const wanted = TIMELINE.filter(
    (s) => (s.wish === undefined || wishes[s.wish]) && grant.allowedMessageTypes.includes(s.type),
  );
  const kept = new Set([...wanted].sort((a, b) => a.priority - b.priority).slice(0, grant.maxMessages));
  return wanted.filter((s) => kept.has(s)).map(({ type, index }) => ({ type, index }));
}
