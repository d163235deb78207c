import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { taskCalendarEntry, threadCalendarEntry } from './calendar-entries';
import { fromICalendar } from './from-icalendar';
import { openThread, transitionThread } from './scheduling-thread';
import { assignTask } from './task-status';
import { ALICE, assign, BOB, cancel, confirm, propose } from './test-support/fixtures';
import { toICalendar } from './to-icalendar';

const stamp = '2025-12-03T09:05:00Z';

describe('threadCalendarEntry', () => {
  const proposed = unwrap(openThread({ from: ALICE, message: propose }));
  const confirmed = unwrap(transitionThread(proposed, { from: ALICE, message: confirm }));
  const cancelled = unwrap(transitionThread(confirmed, { from: BOB, message: cancel }));

  it('uses the threadId as UID and the revision as SEQUENCE, so re-exports update one event', () => {
    const first = toICalendar(threadCalendarEntry(confirmed, stamp));
    const second = toICalendar(threadCalendarEntry(cancelled, '2025-12-04T09:00:00Z'));
    expect(first).toContain('UID:urn:uuid:meet-1\r\n');
    expect(second).toContain('UID:urn:uuid:meet-1\r\n');
    expect(first).toContain('SEQUENCE:2\r\n');
    expect(second).toContain('SEQUENCE:3\r\n');
    expect(second).toContain('STATUS:CANCELLED\r\n');
  });

  it('takes startDate and endDate from the final slot', () => {
    expect(threadCalendarEntry(confirmed, stamp).object).toMatchObject({
      startDate: confirm.finalSlot.start,
      endDate: confirm.finalSlot.end,
    });
    expect(fromICalendar(toICalendar(threadCalendarEntry(confirmed, stamp)))).toMatchObject({
      ok: true,
      value: {
        id: propose.threadId,
        revision: 2,
        object: { title: 'Strategy Workshop', startDate: '2025-12-10T10:00:00Z', duration: 'PT30M' },
      },
    });
  });

  it('has no time for a thread that was never confirmed', () => {
    expect(threadCalendarEntry(proposed, stamp).object).not.toHaveProperty('startDate');
    expect(() => toICalendar(threadCalendarEntry(proposed, stamp))).toThrow(
      expect.objectContaining({ code: 'OACOP_INVALID_ICAL' }),
    );
  });
});

describe('taskCalendarEntry', () => {
  it('exports a task as a VTODO due at its deadline, at revision 1 without one', () => {
    const task = unwrap(
      assignTask(undefined, {
        from: ALICE,
        worker: BOB,
        message: { ...assign, object: { ...assign.object, duration: 'PT2H' } },
      }),
    );
    const entry = taskCalendarEntry(task, stamp);
    expect(entry).toEqual({
      id: 'urn:uuid:task-1',
      revision: 1,
      stamp,
      object: {
        type: 'Task',
        title: 'Report',
        parentTaskId: 'urn:uuid:project-alpha',
        endDate: '2025-12-20T12:00:00Z',
      },
    });
    expect(toICalendar(entry)).toContain('DUE:20251220T120000Z\r\n');
  });

  it('marks a declined task cancelled and keeps a revision', () => {
    const task = {
      ...unwrap(assignTask(undefined, { from: ALICE, worker: BOB, message: assign })),
      status: 'DECLINED' as const,
      revision: 4,
    };
    expect(taskCalendarEntry(task, stamp)).toMatchObject({ revision: 4, cancelled: true });
  });
});
