// The ProposeCollaboration the form sends (OACoP §3.1, §2.3): pure, so the rules are tested.
// A room is a required participant (§8.2: it must accept the booking). Revision 1 opens a thread.
import { fail, ok, type Result } from '@shared/errors';
import type { ProposeCollaboration } from '@shared/oacop/messages';
import { overLimitProblem } from '@shared/contract/text-limits';

export interface ProposalDraft {
  readonly threadId: string;
  readonly title: string;
  readonly minutes: number;
  /** YYYY-MM-DD, the window's first UTC day. */
  readonly startDate: string;
  readonly days: number;
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly room?: string | undefined;
  readonly location?: string | undefined;
  /** Epoch ms; when given, a window that starts before today (UTC) is refused (decisions-web.md §26). */
  readonly now?: number | undefined;
}

const DAY_MS = 86_400_000;
const isWorkingDay = (ms: number) => new Date(ms).getUTCDay() % 6 !== 0;

/**
 * The default window: from the first working day (Monday to Friday, UTC) after today, as many days
 * as it takes to hold two working days, so a meeting proposed on a Thursday, a Friday or at a
 * weekend still finds people at work (decisions-web.md §41).
 */
export function defaultWindow(now: number): { readonly startDate: string; readonly days: number } {
  let start = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`) + DAY_MS;
  while (!isWorkingDay(start)) start += DAY_MS;
  let days = 1;
  for (let working = 1; working < 2; days += 1) if (isWorkingDay(start + days * DAY_MS)) working += 1;
  return { startDate: new Date(start).toISOString().slice(0, 10), days };
}

export function buildProposal(d: ProposalDraft): Result<ProposeCollaboration> {
  const title = d.title.trim();
  if (!title) return fail('INVALID_INPUT', 'Give the meeting a title.');
  const long = overLimitProblem('line', title);
  if (long) return fail('INVALID_INPUT', `The title ${long}.`);
  const where = overLimitProblem('line', d.location?.trim() ?? '');
  if (where) return fail('INVALID_INPUT', `The location ${where}.`);
  if (!Number.isInteger(d.minutes) || d.minutes < 5)
    return fail('INVALID_INPUT', 'The duration must be whole minutes, 5 or more.');
  if (!Number.isInteger(d.days) || d.days < 1 || d.days > 14)
    return fail('INVALID_INPUT', 'The window is 1 to 14 days long.');
  const start = Date.parse(`${d.startDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d.startDate) || !Number.isFinite(start))
    return fail('INVALID_INPUT', 'Pick the first day of the window.');
  // Today still has hours to meet in; a window that ended, or starts on a day gone, has none.
  if (d.now !== undefined && start < Date.parse(`${new Date(d.now).toISOString().slice(0, 10)}T00:00:00Z`))
    return fail('INVALID_INPUT', 'The window starts in the past: pick today or a later day (UTC).');
  const required = [...d.required, ...(d.room ? [d.room] : [])];
  const participants = [...required, ...d.optional];
  if (participants.length === 0) return fail('INVALID_INPUT', 'Invite at least one participant.');
  const toUtc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  return ok({
    type: 'ProposeCollaboration',
    threadId: d.threadId,
    revision: 1,
    object: { type: 'Event', title, duration: `PT${d.minutes}M`, ...(d.location ? { location: d.location } : {}) },
    constraints: {
      timeWindow: { start: toUtc(start), end: toUtc(start + d.days * 86_400_000) },
      participants,
      requiredParticipants: required,
    },
  });
}
