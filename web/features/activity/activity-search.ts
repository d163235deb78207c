// `?actor=&kind=&target=&room=` on /activity: a filtered view of the log is a link to share, and
// the Agents screen's "Activity" link is /activity?target=<agentId>. Each value is a bounded string.
import { ACTIVITY_KINDS, type ActivityKind } from '@shared/contract/activity';

export interface ActivitySearch {
  readonly actor?: string;
  readonly kind?: ActivityKind;
  readonly target?: string;
  readonly room?: string;
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' && v.length <= 200 ? v.trim() : undefined;

export function parseActivitySearch(search: Record<string, unknown>): ActivitySearch {
  const kind = search['kind'];
  const out: { -readonly [K in keyof ActivitySearch]: ActivitySearch[K] } = {};
  for (const key of ['actor', 'target', 'room'] as const) {
    const value = text(search[key]);
    if (value !== undefined) out[key] = value;
  }
  if (typeof kind === 'string' && (ACTIVITY_KINDS as readonly string[]).includes(kind)) out.kind = kind as ActivityKind;
  return out;
}
