// The pure rules that turn facts into inbox items, with their thresholds (decisions-server.md,
// "The inbox"). The server feeds them what its domains know; the same rules run in tests.
import { withoutBidiControls } from '../bidi-controls';
import type { Urgency } from '../contract/inbox';

/** A grant is "about to end" with less than this much time left. */
export const GRANT_TIME_LEFT_MS = 2 * 60_000;
/** … or with less than this share of its budget left. */
export const GRANT_BUDGET_SHARE = 0.2;
/** Under this much time left it is urgent: the agent is cut off within the minute. */
export const GRANT_URGENT_MS = 30_000;

/** "Repeated rejects": at least this many rejects of one agent in one room … */
export const REPEATED_REJECTS = 5;
/** … within this window. */
export const REJECT_WINDOW_MS = 10 * 60_000;

/** What the grant rule reads of a stored grant (AOR §5.3 times are Unix seconds). */
export interface GrantFacts {
  readonly maxMessages: number;
  readonly spent: number;
  /** Unix seconds. */
  readonly expiresAt: number;
  /** Unix seconds. */
  readonly grantedAt: number;
  readonly endedAt: number | null;
}

export interface GrantAttention {
  readonly urgency: Urgency;
  /** What makes it end first: its time, or its budget. */
  readonly reason: 'time' | 'budget';
  readonly msLeft: number;
  readonly budgetLeft: number;
  /** When the cause began, from the grant alone so a restart gives the same age. */
  readonly since: number;
  readonly dueAt: number;
}

/**
 * Whether a live grant needs a look at `now` (epoch ms): under GRANT_TIME_LEFT_MS left, or under
 * GRANT_BUDGET_SHARE of its messages left. Null for a grant that is fine, ended or already past.
 * A grant is live through the whole second `expiresAt` (stored-grants.ts), so it ends at
 * (expiresAt + 1) s.
 */
export function grantAttention(grant: GrantFacts, now: number): GrantAttention | null {
  if (grant.endedAt !== null) return null;
  const endsAt = (grant.expiresAt + 1) * 1000;
  const msLeft = endsAt - now;
  const budgetLeft = Math.max(0, grant.maxMessages - grant.spent);
  if (msLeft <= 0 || budgetLeft === 0) return null;
  const shortOfTime = msLeft < GRANT_TIME_LEFT_MS;
  const shortOfBudget = budgetLeft < grant.maxMessages * GRANT_BUDGET_SHARE;
  if (!shortOfTime && !shortOfBudget) return null;
  const grantedAt = grant.grantedAt * 1000;
  return {
    urgency: msLeft < GRANT_URGENT_MS || budgetLeft === 1 ? 'now' : 'soon',
    reason: shortOfTime ? 'time' : 'budget',
    msLeft,
    budgetLeft,
    // The spend times are not kept, so a budget item is as old as its grant.
    since: shortOfTime ? Math.max(grantedAt, endsAt - GRANT_TIME_LEFT_MS) : grantedAt,
    dueAt: endsAt,
  };
}

export interface RejectBurst {
  readonly count: number;
  /** The oldest reject inside the window. */
  readonly since: number;
}

/** The rejects inside the window ending at `now`, when they are at least REPEATED_REJECTS; else null. */
export function repeatedRejects(times: readonly number[], now: number): RejectBurst | null {
  let count = 0;
  let since = Infinity;
  for (const at of times) {
    if (at > now || at <= now - REJECT_WINDOW_MS) continue;
    count++;
    since = Math.min(since, at);
  }
  return count >= REPEATED_REJECTS ? { count, since } : null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a facilitator's `say` answers an agent's clarifying question (decisions-server.md,
 * "The inbox"): one sent after the question to the agent's own inbox topic does, and one on the
 * room's public topic does when its text names the agent, as `@agent.id` or as the bare id
 * standing as a word of its own (not inside a longer id).
 */
export function sayAnswers(say: { readonly text: string; readonly toAgent: string | null }, agentId: string): boolean {
  if (say.toAgent !== null) return say.toAgent === agentId;
  return new RegExp(`(^|[^\\w.-])@?${escapeRegExp(agentId)}(?![\\w-]|\\.[\\w-])`).test(say.text);
}

/**
 * Agent-written text as an item quotes it: whitespace runs folded, other control characters
 * dropped, bidi controls made visible (␦, shared/bidi-controls.ts) so a quote cannot reverse how
 * the text around it reads in the inbox, a notification or a webhook; at most `max` characters.
 */
export function quoteOf(text: string, max = 280): string {
  const folded = withoutBidiControls(
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    text.replace(/\s+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ''),
  ).trim();
  return folded.length <= max ? folded : `${folded.slice(0, max - 1)}…`;
}
