// Step 3 of the guided demo: a 30-minute meeting with one demo person and the
// demo's meeting room (a resource, OACoP §8.2), proposed by the operator over the next two
// weekdays. Pure, so the choice of participants and the window are tested.
import { fail, ok, type Result } from '@shared/errors';
import type { ProposeCollaboration } from '@shared/oacop/messages';
import type { OacopAgent } from '@web/lib/oacop/oacop-directory';

export const MEETING_TITLE = 'Demo: review the weather API deal';

/** The first UTC weekday strictly after `now`, as midnight UTC (the demo calendars keep weekdays). */
export function nextWeekday(now: number): number {
  const d = new Date(now);
  d.setUTCHours(0, 0, 0, 0);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
  return d.getTime();
}

const toUtc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The proposal, or why it cannot be made (no person or no room in the directory yet). */
export function guidedMeeting(
  agents: readonly OacopAgent[],
  threadId: string,
  now: number,
): Result<{ message: ProposeCollaboration; person: OacopAgent; room: OacopAgent }> {
  const person =
    agents.find((a) => a.kind === 'person' && /^ada\b/i.test(a.name)) ?? agents.find((a) => a.kind === 'person');
  const room =
    agents.find((a) => a.kind === 'resource' && /room/i.test(a.name)) ?? agents.find((a) => a.kind === 'resource');
  if (!person || !room)
    return fail(
      'NOT_READY',
      'The demo calendar agents are not in the directory yet. Wait a few seconds, or start the server with DEMO=1.',
    );
  const start = nextWeekday(now);
  return ok({
    person,
    room,
    message: {
      type: 'ProposeCollaboration',
      threadId,
      revision: 1,
      object: { type: 'Event', title: MEETING_TITLE, duration: 'PT30M', location: room.name },
      constraints: {
        timeWindow: { start: toUtc(start), end: toUtc(start + 2 * 86_400_000) },
        participants: [person.did, room.did],
        requiredParticipants: [person.did, room.did],
      },
    },
  });
}
