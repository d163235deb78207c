// One activity log for people and agents (decisions-server.md §83): every audited action, read
// across rooms, filtered by who acted, what kind of action, what it acted on and where. Each entry
// is the audit log's row; its `kind` and `target` are derived from the action once, when it is
// written, so a filter is an index probe on either engine.
import { z } from 'zod';
import { operation } from './operation';
import { AuditEntry } from './rooms';

/** What an action acted on, in families: agents, operators (people), rooms, review decisions. */
export const ACTIVITY_KINDS = ['agent', 'operator', 'room', 'review'] as const;
export const ActivityKind = z.enum(ACTIVITY_KINDS);
export type ActivityKind = z.infer<typeof ActivityKind>;

/** The family of an action: `agent.suspend` → agent; the enrollment record before §83 → operator. */
export function activityKind(action: string): ActivityKind | null {
  if (action === 'operator_enrolled') return 'operator';
  const family = action.split('.')[0];
  return (ACTIVITY_KINDS as readonly string[]).includes(family ?? '') ? (family as ActivityKind) : null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * What an action acted on: the agent for agent, review and agent-addressed room actions; the
 * operator for operator actions (the one named in `details.did`, else the actor: an enrollment
 * or a name change acts on oneself). Null when it acted on a room only.
 */
export function activityTarget(
  action: string,
  actorDid: string,
  details: Readonly<Record<string, unknown>>,
): string | null {
  switch (activityKind(action)) {
    case 'agent':
    case 'review':
    case 'room':
      return str(details.agentId) ?? str(details.agent_id);
    case 'operator':
      return str(details.did) ?? (action.startsWith('operator.invite') ? null : actorDid);
    case null:
      return null;
  }
}

const Filter = z.string().trim().min(1).max(200);
export const ActivityQuery = z.strictObject({
  /** Who acted: an operator's did, or `cli`. */
  actor: Filter.optional(),
  kind: ActivityKind.optional(),
  /** What was acted on: an agent id or an operator's did. */
  target: Filter.optional(),
  room: Filter.optional(),
  /** Keyset: the last id of the previous page (entries are newest first). */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;

/** An entry with the actor's name, so a page names each person once. */
export const ActivityEntry = AuditEntry.extend({
  kind: ActivityKind.nullable(),
  target: z.string().nullable(),
  /** The actor's display name (operator-name.ts); null for `cli` and agents. */
  actorName: z.string().nullable(),
  /** An operator target's display name, when they gave one; null otherwise. */
  targetName: z.string().nullable(),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;

export const ActivityPage = z.object({
  entries: z.array(ActivityEntry),
  /** The `before` of the next page; null on the last one. */
  next: z.number().nullable(),
});
export type ActivityPage = z.infer<typeof ActivityPage>;

export const ACTIVITY_OPERATIONS = [
  operation({
    method: 'get',
    path: '/api/activity',
    errors: 'coded',
    summary: 'What people and agents did, newest first (actor, kind, target, room, before, limit)',
    query: ActivityQuery,
    responses: { 200: { description: 'A page of entries', schema: ActivityPage } },
    refusals: { 400: 'INVALID_REQUEST', 401: 'UNAUTHORIZED' },
  }),
];
