// MQTT topic filters (MQTT 3.1.1 §4.7, MQTT 5 §4.7): matching a topic name, and deciding whether
// one filter only ever matches topics that another filter matches (for subscription ACLs).

const SYSTEM_PREFIX = '$';

/** [MQTT-4.7.1-2] `#` only last and alone in its level; [MQTT-4.7.1-3] `+` alone in its level. */
export function isValidFilter(filter: string): boolean {
  if (filter.length === 0 || filter.includes('\u0000')) return false;
  const levels = filter.split('/');
  return levels.every((level, i) => {
    if (level.includes('#')) return level === '#' && i === levels.length - 1;
    if (level.includes('+')) return level === '+';
    return true;
  });
}

export function topicMatches(filter: string, topic: string): boolean {
  // [MQTT-4.7.2-1] wildcards at the first level do not match topics starting with `$`.
  if (topic.startsWith(SYSTEM_PREFIX) && !filter.startsWith(SYSTEM_PREFIX)) return false;
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    const level = f[i];
    if (level === '#') return true;
    if (i >= t.length) return false;
    if (level !== '+' && level !== t[i]) return false;
  }
  return f.length === t.length;
}

/**
 * True when every topic `requested` can match is also matched by `allowed`. A subscriber asking
 * for `rooms/+/agents/+/inbox` is not covered by `rooms/+/agents/me/inbox`, so it is refused
 * rather than narrowed: a wildcard must never reach another agent's topics.
 */
export function filterCovers(allowed: string, requested: string): boolean {
  const a = allowed.split('/');
  const r = requested.split('/');
  for (let i = 0; i < a.length; i++) {
    const level = a[i];
    if (level === '#') return true;
    const asked = r[i];
    if (asked === undefined) return false;
    if (asked === '#') return false;
    if (level === '+') continue;
    if (asked === '+' || asked !== level) return false;
  }
  return a.length === r.length;
}
