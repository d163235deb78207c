import { describe, expect, it } from 'vitest';
import { ENVELOPE_TYPES } from './envelope';
import { isTypeAllowedOnTopic, TOPIC_KINDS_BY_TYPE } from './envelope-topics';

describe('isTypeAllowedOnTopic (AOR §5 "Topic:" lines)', () => {
  it.each([
    ['say', 'public', true],
    ['say', 'public_candidates', false],
    ['task', 'inbox', true],
    ['task', 'public', false],
    ['mic_grant', 'control', true],
    ['mic_grant', 'inbox', false],
    ['mic_revoke', 'control', true],
    ['heartbeat', 'heartbeat', true],
    ['heartbeat', 'public', false],
    ['result', 'public_candidates', true],
    ['result', 'public', true],
    ['result', 'control', false],
    ['reject', 'control', true],
    ['reject', 'public', false],
  ] as const)('%s on %s: %s', (type, kind, allowed) => {
    expect(isTypeAllowedOnTopic(type, kind)).toBe(allowed);
  });

  it('lets anything through the private work topic', () => {
    for (const type of ENVELOPE_TYPES) expect(isTypeAllowedOnTopic(type, 'work')).toBe(true);
  });

  it('names a topic for every envelope type', () => {
    expect(Object.keys(TOPIC_KINDS_BY_TYPE).sort()).toEqual([...ENVELOPE_TYPES].sort());
  });
});
