import { describe, expect, it } from 'vitest';
import { checkMessage } from '@shared/oacop/check-message';
import { guidedMeeting, nextWeekday } from './guided-meeting';

const agents = [
  { did: 'did:key:z6MkBruno', name: 'Bruno', kind: 'person', timeZone: 'America/New_York' },
  { did: 'did:key:z6MkScanner', name: 'Scanner 1', kind: 'resource', timeZone: 'Europe/Berlin' },
  { did: 'did:key:z6MkAda', name: 'Ada', kind: 'person', timeZone: 'Europe/Berlin' },
  { did: 'did:key:z6MkAtlas', name: 'Room Atlas', kind: 'resource', timeZone: 'Europe/Berlin' },
] as const;

describe('guided meeting', () => {
  it('skips weekends for the window start', () => {
    expect(new Date(nextWeekday(Date.parse('2026-05-08T15:00:00Z'))).toISOString()).toBe('2026-05-11T00:00:00.000Z'); // Fri → Mon
    expect(new Date(nextWeekday(Date.parse('2026-05-05T00:00:00Z'))).toISOString()).toBe('2026-05-06T00:00:00.000Z'); // Tue → Wed
  });

  it('proposes 30 minutes with Ada and Room Atlas, both required, over two weekdays; a valid message', () => {
    const built = guidedMeeting(agents, 'urn:uuid:1', Date.parse('2026-05-05T09:00:00Z'));
    if (!built.ok) throw new Error(built.error.message);
    expect(built.value.person.name).toBe('Ada');
    expect(built.value.room.name).toBe('Room Atlas');
    expect(built.value.message.constraints).toEqual({
      timeWindow: { start: '2026-05-06T00:00:00Z', end: '2026-05-08T00:00:00Z' },
      participants: ['did:key:z6MkAda', 'did:key:z6MkAtlas'],
      requiredParticipants: ['did:key:z6MkAda', 'did:key:z6MkAtlas'],
    });
    expect(checkMessage(built.value.message)).toEqual([]);
  });

  it('says what is missing while the directory has no calendar agents', () => {
    const built = guidedMeeting(
      agents.filter((a) => a.kind === 'person'),
      'urn:uuid:1',
      0,
    );
    expect(built.ok ? null : built.error.code).toBe('NOT_READY');
  });
});
