import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import type { ThreadState } from '@shared/oacop/scheduling-thread';
import { icsFileName, threadIcs } from './thread-ics';

const base = {
  threadId: 'urn:uuid:meet-1',
  initiator: 'did:key:z6MkOperator',
  object: { type: 'Event', title: 'Planning', duration: 'PT60M', location: 'Room Atlas' },
  constraints: {
    timeWindow: { start: '2026-11-23T00:00:00Z', end: '2026-11-25T00:00:00Z' },
    participants: ['did:key:z6MkAda'],
  },
  responses: {},
} as const;

const vevent = (text: string) => new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!;

describe('threadIcs', () => {
  it('exports a confirmed thread: UID = threadId, SEQUENCE = revision, UTC times, a stamp with milliseconds cut', () => {
    const state = {
      ...base,
      status: 'CONFIRMED',
      revision: 2,
      finalSlot: { start: '2026-11-23T14:00:00Z', end: '2026-11-23T15:00:00Z' },
    } as unknown as ThreadState;
    const ics = threadIcs(state, Date.parse('2026-11-22T10:00:00.789Z'));
    expect(ics.ok).toBe(true);
    const event = vevent(ics.ok ? ics.value : '');
    expect(event.getFirstPropertyValue('uid')).toBe('urn:uuid:meet-1');
    expect(event.getFirstPropertyValue('sequence')).toBe(2);
    const start = event.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect(start.zone?.tzid).toBe('UTC');
    expect(start.toJSDate().toISOString()).toBe('2026-11-23T14:00:00.000Z');
    // §2.4 maps the duration to DURATION; the end is start + duration.
    expect(new ICAL.Event(event).endDate.toJSDate().toISOString()).toBe('2026-11-23T15:00:00.000Z');
    expect((event.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate().toISOString()).toBe(
      '2026-11-22T10:00:00.000Z',
    );
  });

  it('keeps the UID and bumps SEQUENCE when the thread is cancelled', () => {
    const state = {
      ...base,
      status: 'CANCELLED',
      revision: 3,
      reason: 'moved',
      cancelledBy: base.initiator,
      finalSlot: { start: '2026-11-23T14:00:00Z', end: '2026-11-23T15:00:00Z' },
    } as unknown as ThreadState;
    const ics = threadIcs(state, 0);
    const event = vevent(ics.ok ? ics.value : '');
    expect(event.getFirstPropertyValue('uid')).toBe('urn:uuid:meet-1');
    expect(event.getFirstPropertyValue('sequence')).toBe(3);
    expect(event.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('refuses a proposed thread, which has no time yet', () => {
    const ics = threadIcs({ ...base, status: 'PROPOSED', revision: 1 } as unknown as ThreadState, 0);
    expect(ics.ok).toBe(false);
  });

  it('names the file after the title', () => {
    expect(icsFileName('Planning <b>sync</b>')).toBe('planning-b-sync-b.ics');
    expect(icsFileName('   ')).toBe('meeting.ics');
    expect(icsFileName(undefined)).toBe('meeting.ics');
  });
});
