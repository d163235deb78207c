// The topics an external broker carries that the spec (§3) does not name: agents publish
// candidates to their own `rooms/{roomId}/public_candidates/{agentId}`, which the broker's ACL
// lets only that agent publish, and the server reads them as the spec's topic with that agent as
// the publisher (external-broker.ts; docs/decisions-external-broker.md).
import { isValidId } from '@shared/aor/ids';

const CANDIDATE_SUBTOPIC = /^rooms\/([^/]+)\/public_candidates\/([^/]+)$/;
/** Topics an agent may publish to (and so may leave a retained message on). */
export const AGENT_WRITABLE = [
  /^rooms\/[^/]+\/public_candidates\/[^/]+$/,
  /^rooms\/[^/]+\/agents\/[^/]+\/(heartbeat|work)$/,
];
/** The same topics as filters: what the shared subscription carries (agents publish nothing else). */
export const AGENT_WRITABLE_FILTERS = [
  'rooms/+/public_candidates/+',
  'rooms/+/agents/+/heartbeat',
  'rooms/+/agents/+/work',
] as const;

/** The spec's topic and the authenticated agent for a per-agent candidate subtopic. */
export function normalizeCandidate(topic: string): { topic: string; agentId: string } | undefined {
  const m = CANDIDATE_SUBTOPIC.exec(topic);
  if (!m || !isValidId(m[1]) || !isValidId(m[2])) return undefined;
  return { topic: `rooms/${m[1]}/public_candidates`, agentId: m[2] };
}

/** The broker filters that carry what `filter` matches once candidates are normalized. */
export function wireFilters(filter: string): string[] {
  const levels = filter.split('/');
  const last = levels.at(-1);
  return last === 'public_candidates' || last === '+' ? [filter, `${filter}/+`] : [filter];
}
