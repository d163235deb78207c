// AOR §5 names the topic each envelope type travels on. With §2 ("intent is defined by the
// topic") this lets a receiver refuse, say, a `task` that arrived on `public`.
import type { EnvelopeType } from './envelope';
import type { TopicKind } from './topics';

export const TOPIC_KINDS_BY_TYPE = {
  say: ['public'], // §5.1
  task: ['inbox'], // §5.2
  mic_grant: ['control'], // §5.3
  mic_revoke: ['control'], // §5.4
  heartbeat: ['heartbeat'], // §5.5
  result: ['public_candidates', 'public'], // §5.6
  reject: ['control'], // §5.7
} as const satisfies Record<EnvelopeType, readonly TopicKind[]>;

/**
 * Whether an envelope of `type` belongs on a topic of `kind`. The `work` topic is private
 * scratch (§3) with no envelope type of its own, so anything goes there.
 */
export function isTypeAllowedOnTopic(type: EnvelopeType, kind: TopicKind): boolean {
  if (kind === 'work') return true;
  return (TOPIC_KINDS_BY_TYPE[type] as readonly TopicKind[]).includes(kind);
}
