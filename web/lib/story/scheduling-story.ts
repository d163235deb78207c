// The story of an OACoP scheduling thread: the proposal, each participant's
// answer, the confirmation ("Ada booked Room Atlas, Tue 10:00–10:30") or the cancellation, as
// sentences without DIDs. Pure: it reads the console's read model (SchedulingThreadView).
import type { SchedulingThreadView } from '@shared/oacop/scheduling-projection';
import type { Slot } from '@shared/oacop/messages';
import { count, type StoryLine } from './story-line';
import { rangeWords } from '@web/lib/time-words';

export interface SchedulingStoryOptions {
  /** Display names by DID; others are "A participant". */
  readonly names?: Readonly<Record<string, string>>;
  /** IANA zone the times are written in; UTC by default. */
  readonly timeZone?: string;
  /** Participants that are resources (rooms, equipment): they are "booked", not "invited". */
  readonly resources?: ReadonlySet<string>;
}

/** "Tue 10:00–10:30 UTC" in `timeZone` (the day of the start), naming the zone (decisions-web §30). */
export function slotWords(slot: Slot, timeZone = 'UTC', now: number = Date.now()): string {
  // With its date (decisions-web.md §36): "Tue 15 Dec, 08:00–08:30 UTC", never a weekday alone.
  return rangeWords(Date.parse(slot.start), Date.parse(slot.end), timeZone, now);
}

const list = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? 'nobody') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;

const ANSWER: Readonly<Record<string, string>> = {
  INTERESTED: 'can make it',
  TENTATIVE: 'might make it',
  DECLINED: 'cannot make it',
};

/** Sentences for a thread, oldest first. */
export function schedulingStory(view: SchedulingThreadView, options: SchedulingStoryOptions = {}): StoryLine[] {
  const zone = options.timeZone ?? 'UTC';
  const name = (did: string | undefined) => (did && options.names?.[did]) || 'A participant';
  const state = view.state;
  const organizer = name(state.initiator);
  const lines: StoryLine[] = [];
  const invited = view.participants.filter((p) => p.did !== state.initiator).map((p) => name(p.did));
  const title = state.object.title ? `“${state.object.title}”` : 'a meeting';
  lines.push({
    key: 'proposed',
    at: view.openedAt,
    actor: organizer,
    text: `${organizer} proposed ${title} to ${list(invited)}.`,
    tone: 'step',
  });

  const answerAt = new Map<string, number>();
  for (const entry of view.log) {
    if (entry.type === 'ProposalResponse' && entry.outcome === 'applied') answerAt.set(entry.from, entry.at);
  }
  const answers = view.participants
    .filter((p) => p.response)
    .map((p) => ({ p, at: answerAt.get(p.did) ?? view.updatedAt }))
    .sort((x, y) => x.at - y.at);
  for (const { p, at } of answers) {
    const r = p.response!;
    const slots = r.status === 'DECLINED' ? '' : ` (${count(r.slots.length, 'free slot')})`;
    lines.push({
      key: `answer:${p.did}`,
      at,
      actor: name(p.did),
      text: `${name(p.did)} ${ANSWER[r.status] ?? `answered ${r.status.toLowerCase()}`}${slots}.`,
      tone: r.status === 'DECLINED' ? 'problem' : 'step',
    });
  }
  for (const p of view.participants) {
    if (p.lastError)
      lines.push({
        key: `error:${p.did}`,
        at: p.lastError.at,
        actor: name(p.did),
        text: `${name(p.did)} could not answer: ${p.lastError.message}`,
        tone: 'problem',
      });
  }

  if (state.status === 'PROPOSED' && view.suggestion && 'candidates' in view.suggestion) {
    const best = view.suggestion.candidates[0];
    if (best)
      lines.push({
        key: 'suggested',
        at: view.updatedAt,
        actor: 'Switchboard',
        text: `Best slot so far: ${slotWords(best, zone)}.`,
        tone: 'step',
      });
    else if (answers.length > 0)
      lines.push({
        key: 'suggested',
        at: view.updatedAt,
        actor: 'Switchboard',
        text: 'No slot suits everyone who must attend yet.',
        tone: 'problem',
      });
  }
  if (state.status === 'CONFIRMED') {
    const rooms = view.participants.filter((p) => options.resources?.has(p.did)).map((p) => name(p.did));
    const what = rooms.length > 0 ? `booked ${list(rooms)}` : `confirmed ${title}`;
    lines.push({
      key: 'confirmed',
      at: view.updatedAt,
      actor: organizer,
      text: `${organizer} ${what}, ${slotWords(state.finalSlot, zone)}.`,
      tone: 'milestone',
    });
  }
  if (state.status === 'CANCELLED') {
    lines.push({
      key: 'cancelled',
      at: view.updatedAt,
      actor: name(state.cancelledBy),
      text: `${name(state.cancelledBy)} called it off: ${state.reason}`,
      tone: 'problem',
    });
  }
  return lines;
}
