// Calendar entries (§2.4) for the two things a console exports: a scheduling thread and a task.
// UID is the threadId and SEQUENCE the revision, so each re-export updates the same calendar item
// (docs/decisions-oacop.md, "UID").
import type { CalendarEntry } from './calendar-entry';
import type { ThreadState } from './scheduling-thread';
import type { TaskState } from './task-status';

/**
 * A thread's entry; `startDate`/`endDate` come from its `finalSlot`. A thread with no final slot
 * yet has no time to put in a calendar, and `toICalendar` refuses its Event.
 */
export function threadCalendarEntry(thread: ThreadState, stamp: string): CalendarEntry {
  const finalSlot = thread.status === 'PROPOSED' ? undefined : thread.finalSlot;
  return {
    id: thread.threadId,
    revision: thread.revision,
    stamp,
    object: {
      ...thread.object,
      ...(finalSlot === undefined ? {} : { startDate: finalSlot.start, endDate: finalSlot.end }),
    },
    ...(thread.status === 'CANCELLED' ? { cancelled: true } : {}),
  };
}

/**
 * A task's entry: its deadline becomes `endDate` (DUE). A duration is left out, since RFC 5545
 * §3.6.2 allows DURATION in a VTODO only beside a DTSTART, which an assigned task has not.
 */
export function taskCalendarEntry(task: TaskState, stamp: string): CalendarEntry {
  const { duration: _omitted, ...object } = task.object;
  return {
    id: task.threadId,
    revision: task.revision ?? 1,
    stamp,
    object: { ...object, endDate: task.deadline },
    ...(task.status === 'DECLINED' ? { cancelled: true } : {}),
  };
}
