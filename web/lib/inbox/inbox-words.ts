// The inbox's own words: what each kind is, and what its one action is called.
import type { InboxItem, InboxKind, Urgency } from '@shared/contract/inbox';

export const KIND_LABEL: Readonly<Record<InboxKind, string>> = {
  review: 'Review',
  cosign: 'Co-signature',
  slot: 'Slot',
  question: 'Question',
  grant: 'Mic grant',
  rejects: 'Rejects',
  service: 'Service',
};

/** The link's words for kinds that are settled elsewhere. */
export const OPEN_LABEL: Readonly<Record<InboxKind, string>> = {
  review: 'Open the room',
  cosign: 'Open to co-sign',
  slot: 'Open the thread',
  question: 'Open the room',
  grant: 'Open the grant',
  rejects: 'Look at the agent',
  service: 'Open services',
};

export const URGENCY_LABEL: Readonly<Record<Urgency, string>> = {
  now: 'Blocking',
  soon: 'Soon',
  info: 'FYI',
};

/** "Ana is deciding…", when someone else holds a live claim on the item. */
export function claimedBy(item: InboxItem, myDid: string, now: number): string | null {
  const c = item.claim;
  return c && c.did !== myDid && c.until > now ? `${c.name} is deciding…` : null;
}

/** "3 rooms active · 5 agents online · 0 rejects in the last hour" */
export function summaryLine(s: { roomsActive: number; agentsOnline: number; rejectsLastHour: number }): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return [
    `${n(s.roomsActive, 'room', 'rooms')} active`,
    `${n(s.agentsOnline, 'agent', 'agents')} online`,
    `${n(s.rejectsLastHour, 'reject', 'rejects')} in the last hour`,
  ].join(' · ');
}
