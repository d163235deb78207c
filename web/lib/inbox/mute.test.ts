import { describe, expect, it } from 'vitest';
import type { InboxItem } from '@shared/contract/inbox';
import { DEFAULT_PREFS, isMuted, parsePrefs, prefsKey, toggle, toNotify } from './mute';

const question = (roomId: string): InboxItem => ({
  id: `question:${roomId}:m1`,
  kind: 'question',
  urgency: 'now',
  title: 'agent.a asks ops',
  quote: 'Which region?',
  since: 1,
  dueAt: null,
  href: `/rooms/${roomId}`,
  ref: { kind: 'question', roomId, messageId: 'm1', agentId: 'agent.a' },
  claim: null,
});
const service: InboxItem = {
  ...question('x'),
  id: 'service:svc_1',
  kind: 'service',
  ref: { kind: 'service', serviceId: 'svc_1' },
};

describe('notification mute rules', () => {
  it('mutes by kind and by room; an item without a room is muted by kind only', () => {
    const prefs = { enabled: true, mutedKinds: ['service' as const], mutedRooms: ['quiet'] };
    expect(isMuted(question('ops'), prefs)).toBe(false);
    expect(isMuted(question('quiet'), prefs)).toBe(true);
    expect(isMuted(service, prefs)).toBe(true);
    expect(isMuted(service, { ...prefs, mutedKinds: [] })).toBe(false);
  });

  it('notifies nothing until the operator turned notifications on', () => {
    expect(toNotify([question('ops')], DEFAULT_PREFS)).toEqual([]);
    expect(
      toNotify([question('ops'), question('quiet')], { ...DEFAULT_PREFS, enabled: true, mutedRooms: ['quiet'] }),
    ).toEqual([question('ops')]);
  });

  it('keeps each operator’s choices apart and reads stored text defensively', () => {
    expect(prefsKey('did:key:zA')).not.toBe(prefsKey('did:key:zB'));
    expect(parsePrefs(null)).toEqual(DEFAULT_PREFS);
    expect(parsePrefs('{not json')).toEqual(DEFAULT_PREFS);
    expect(parsePrefs('[1]')).toEqual({ ...DEFAULT_PREFS });
    expect(
      parsePrefs(JSON.stringify({ enabled: true, mutedKinds: ['review', 'bogus', 3], mutedRooms: ['a', 'a', 7] })),
    ).toEqual({ enabled: true, mutedKinds: ['review'], mutedRooms: ['a'] });
  });

  it('toggles a value in or out of a list', () => {
    expect(toggle(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggle(['a', 'b'], 'a', false)).toEqual(['b']);
    expect(toggle(['a'], 'a', true)).toEqual(['a']);
  });
});
