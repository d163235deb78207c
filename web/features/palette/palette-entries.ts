// What the command palette finds: screens, rooms, agents, negotiations,
// Agora threads, meetings and operators, each by the name a person reads, with the words it can
// also be found by (its id among them, so a pasted id still finds it). Pure, so tested alone.
import { firstWords, meetingName } from '@web/lib/names/item-names';
import { shortId } from '@web/lib/names/name-book';

export type PaletteGroup = 'Screens' | 'Rooms' | 'Agents' | 'Negotiations' | 'Threads' | 'Meetings' | 'Operators';

export interface PaletteEntry {
  /** Unique across the palette: the group and the id. */
  readonly key: string;
  readonly group: PaletteGroup;
  readonly label: string;
  /** A short line beside the label: state, kind, where. */
  readonly hint?: string;
  /** Where choosing it goes: a console path (and a fragment, for a row on a list screen). */
  readonly to: string;
  readonly hash?: string;
  /** More words it is found by. */
  readonly keywords: readonly string[];
}

export interface PaletteSources {
  readonly screens: readonly { readonly to: string; readonly label: string }[];
  readonly rooms?: readonly { readonly id: string; readonly name: string }[] | undefined;
  readonly agents?: readonly { readonly agentId: string; readonly suspended?: unknown }[] | undefined;
  readonly negotiations?:
    | readonly {
        readonly id: string;
        readonly state: string;
        readonly parties: readonly [string, string];
        readonly category: string;
      }[]
    | undefined;
  readonly threads?: readonly { readonly id: string; readonly status: string; readonly intent?: string }[] | undefined;
  readonly meetings?:
    readonly { readonly threadId: string; readonly title: string | null; readonly status: string }[] | undefined;
  readonly operators?:
    readonly { readonly did: string; readonly role: string; readonly name: string | null }[] | undefined;
  /** The naming service's name for a DID (web/lib/names). */
  readonly nameOf: (id: string) => string;
}

const lower = (word: string) => word.toLowerCase();

export function paletteEntries(s: PaletteSources): PaletteEntry[] {
  const entries: PaletteEntry[] = s.screens.map((screen) => ({
    key: `screen:${screen.to}`,
    group: 'Screens',
    label: screen.label,
    hint: 'screen',
    to: screen.to,
    keywords: ['go', 'open'],
  }));
  for (const room of s.rooms ?? [])
    entries.push({
      key: `room:${room.id}`,
      group: 'Rooms',
      label: room.name || room.id,
      hint: 'room',
      to: `/rooms/${encodeURIComponent(room.id)}`,
      keywords: [room.id],
    });
  for (const agent of s.agents ?? [])
    entries.push({
      key: `agent:${agent.agentId}`,
      group: 'Agents',
      label: agent.agentId,
      hint: agent.suspended ? 'agent, suspended' : 'agent',
      to: '/fleet',
      hash: `agent-${agent.agentId}`,
      keywords: ['agent', 'credential'],
    });
  for (const n of s.negotiations ?? []) {
    const [a, b] = n.parties.map(s.nameOf);
    entries.push({
      key: `negotiation:${n.id}`,
      group: 'Negotiations',
      label: `${n.category}: ${a} and ${b}`,
      hint: lower(n.state),
      to: `/negotiations/${encodeURIComponent(n.id)}`,
      keywords: [n.id, ...n.parties],
    });
  }
  for (const t of s.threads ?? [])
    entries.push({
      key: `thread:${t.id}`,
      group: 'Threads',
      label: firstWords(t.intent, 10) ?? `Thread ${shortId(t.id)}`,
      hint: lower(t.status),
      to: `/threads/${encodeURIComponent(t.id)}`,
      keywords: [t.id],
    });
  for (const m of s.meetings ?? [])
    entries.push({
      key: `meeting:${m.threadId}`,
      group: 'Meetings',
      label: meetingName(m),
      hint: lower(m.status),
      to: `/scheduling/${encodeURIComponent(m.threadId)}`,
      keywords: [m.threadId, 'meeting', 'scheduling'],
    });
  for (const o of s.operators ?? [])
    entries.push({
      key: `operator:${o.did}`,
      group: 'Operators',
      label: o.name ?? s.nameOf(o.did),
      hint: o.role,
      to: '/settings/operators',
      hash: `operator-${o.did}`,
      keywords: [o.did, 'operator', 'person'],
    });
  return entries;
}
