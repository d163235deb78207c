// Who moved a scheduling thread past the revision a console acted on (decisions-server.md §57):
// the applied message that took it from `revision` to the next, from the read model's log. A
// console that planned a Confirm or Cancel at `revision` + 1 lost to this one.
import type { SchedulingThreadView } from './scheduling-projection';

export interface ThreadDecision {
  /** In words: `confirmed`, `cancelled` or `revised` (a new proposal, §3.4.1). */
  readonly decision: 'confirmed' | 'cancelled' | 'revised';
  readonly by: string;
  /** When the relay received it (epoch ms). */
  readonly at: number;
  readonly revision: number;
}

const DECISIONS = {
  ConfirmCollaboration: 'confirmed',
  CancelCollaboration: 'cancelled',
  ProposeCollaboration: 'revised',
} as const;

/** The first applied decision after `revision`, or undefined while the thread still stands at it. */
export function decisionSince(view: SchedulingThreadView, revision: number): ThreadDecision | undefined {
  for (const entry of view.log) {
    if (entry.outcome !== 'applied' || entry.revision === undefined || entry.revision <= revision) continue;
    if (!(entry.type in DECISIONS)) continue;
    const decision = DECISIONS[entry.type as keyof typeof DECISIONS];
    return { decision, by: entry.from, at: entry.at, revision: entry.revision };
  }
  return undefined;
}
