// The command palette (Ctrl/⌘ K, or the header's "Find" button): one field that finds screens,
// rooms, agents, negotiations, threads, meetings and operators by name, and goes there. The lists
// are the ones the screens read (the same query keys), fetched when the palette opens; agents are
// paged on the server, so the palette holds their first page and the agents whose id starts with
// what is typed (decisions-web.md §43). cmdk gives
// the combobox and its keyboard (arrows, Enter, type to filter); Radix the modal dialog.
import * as RadixDialog from '@radix-ui/react-dialog';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Command } from 'cmdk';
import { useMemo, useState } from 'react';
import { isValidId } from '@shared/aor/ids';
import { NAV_TABS } from '@web/app/screens';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { operatorsQuery } from '@web/lib/api/operators';
import { agentAccountPageQuery, type AgentAccount } from '@web/lib/api/agent-accounts';
import { threadsQuery } from '@web/lib/api/agora-threads';
import { negotiationsQuery } from '@web/lib/api/negotiations-list';
import { roomsQuery } from '@web/lib/api/rooms-list';
import { schedulingThreadsQuery } from '@web/lib/api/scheduling-threads';
import { displayText } from '@web/lib/display-text';
import { useNames } from '@web/lib/names/use-names';
import { paletteEntries, type PaletteEntry, type PaletteGroup } from './palette-entries';

const GROUPS: readonly PaletteGroup[] = [
  'Screens',
  'Rooms',
  'Agents',
  'Negotiations',
  'Threads',
  'Meetings',
  'Operators',
];
// Lists as the palette reads them: no polling while it is open.
const once = { refetchInterval: false, staleTime: 30_000 } as const;

/** Agents the palette asks for by id prefix as the operator types. */
const AGENTS_FOUND = 20;

/** The first page and the agents found by prefix, each once. */
function agentsOnce(...lists: (readonly AgentAccount[] | undefined)[]): AgentAccount[] | undefined {
  if (lists.every((l) => l === undefined)) return undefined;
  const byId = new Map<string, AgentAccount>();
  for (const list of lists) for (const agent of list ?? []) byId.set(agent.agentId, agent);
  return [...byId.values()];
}

export interface CommandPaletteProps {
  readonly open: boolean;
  readonly onOpenChange: (open: boolean) => void;
}

export function CommandPalette({ open, onOpenChange }: CommandPaletteProps) {
  const navigate = useNavigate();
  const { nameOf } = useNames();
  const rooms = useQuery({ ...roomsQuery, ...once, enabled: open });
  const [typed, setTyped] = useState('');
  const prefix = typed.trim();
  const agents = useQuery({ ...agentAccountPageQuery(), ...once, enabled: open });
  const agentsFound = useQuery({
    ...agentAccountPageQuery({ search: prefix, limit: AGENTS_FOUND }),
    ...once,
    enabled: open && prefix !== '' && isValidId(prefix),
    placeholderData: keepPreviousData,
  });
  const negotiations = useQuery({ ...negotiationsQuery(null), ...once, enabled: open });
  const threads = useQuery({ ...threadsQuery(), ...once, enabled: open });
  const meetings = useQuery({ ...schedulingThreadsQuery, ...once, enabled: open });
  // Only facilitators may list operators (an observer's request would be refused).
  const facilitator = canAct(useSession());
  const operators = useQuery({ ...operatorsQuery, ...once, enabled: open && facilitator });
  const entries = useMemo(
    () =>
      paletteEntries({
        screens: [
          ...NAV_TABS,
          ...(facilitator ? [{ to: '/settings/operators', label: 'Operators' }] : []),
          { to: '/settings/account', label: 'Your name' },
          { to: '/settings/inbox', label: 'Inbox notifications' },
        ],
        rooms: rooms.data,
        agents: agentsOnce(agents.data?.agents, agentsFound.data?.agents),
        negotiations: negotiations.data?.negotiations,
        threads: threads.data?.map((t) => ({ ...t, ...(t.state.intent ? { intent: t.state.intent } : {}) })),
        meetings: meetings.data,
        operators: operators.data?.operators,
        nameOf,
      }),
    [
      rooms.data,
      agents.data,
      agentsFound.data,
      negotiations.data,
      threads.data,
      meetings.data,
      operators.data,
      facilitator,
      nameOf,
    ],
  );
  const loading = [rooms, agents, negotiations, threads, meetings].some((q) => q.isPending);
  // Each opening starts from an empty field, as an uncontrolled one would.
  const openChange = (next: boolean) => {
    if (!next) setTyped('');
    onOpenChange(next);
  };
  const go = (entry: PaletteEntry) => {
    openChange(false);
    void navigate({ to: entry.to, ...(entry.hash ? { hash: entry.hash } : {}) });
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={openChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-950/40 dark:bg-black/60" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed left-1/2 top-[10vh] z-50 w-[min(36rem,calc(100vw-2rem))] -translate-x-1/2 overflow-hidden rounded-xl border border-slate-200 bg-white text-slate-900 shadow-xl dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100"
        >
          <RadixDialog.Title className="sr-only">
            Find a screen, room, agent, negotiation, thread or meeting
          </RadixDialog.Title>
          <Command label="Find by name" loop>
            <Command.Input
              value={typed}
              onValueChange={setTyped}
              autoFocus
              placeholder="Find a room, agent, negotiation, thread or meeting…"
              className="w-full border-b border-slate-200 bg-transparent px-4 py-3 text-base outline-none placeholder:text-slate-500 dark:border-slate-800 dark:placeholder:text-slate-400"
            />
            <Command.List className="max-h-[min(60vh,28rem)] overflow-y-auto p-2">
              <Command.Empty className="px-3 py-6 text-center text-sm text-slate-600 dark:text-slate-400">
                {loading ? 'Looking…' : 'Nothing by that name.'}
              </Command.Empty>
              {GROUPS.map((group) => {
                const items = entries.filter((e) => e.group === group);
                if (items.length === 0) return null;
                return (
                  <Command.Group
                    key={group}
                    heading={group}
                    className="[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-slate-600 dark:[&_[cmdk-group-heading]]:text-slate-400"
                  >
                    {items.map((entry) => (
                      <Command.Item
                        key={entry.key}
                        value={entry.key}
                        keywords={[entry.label, ...entry.keywords]}
                        onSelect={() => go(entry)}
                        className="flex cursor-pointer items-baseline justify-between gap-3 rounded-md px-3 py-2 text-sm data-[selected=true]:bg-teal-50 data-[selected=true]:text-teal-900 dark:data-[selected=true]:bg-teal-950 dark:data-[selected=true]:text-teal-100"
                      >
                        <span className="min-w-0 truncate">{displayText(entry.label)}</span>
                        {entry.hint ? (
                          <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">{entry.hint}</span>
                        ) : null}
                      </Command.Item>
                    ))}
                  </Command.Group>
                );
              })}
            </Command.List>
          </Command>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
