// The console's screens, in one list. The router, the main navigation, the `g <key>` shortcuts
// and the shortcuts dialog are all made from it, so a new screen is one entry here and its page.
import { lazyRouteComponent, type AsyncRouteComponent } from '@tanstack/react-router';
import { parseActivitySearch } from '@web/features/activity/activity-search';
import { parseInboxSearch } from '@web/features/inbox/inbox-search';
import { parseNegotiationsSearch } from '@web/features/negotiations/list-search';
import { parseTimelineSearch } from '@web/features/rooms/timeline-filter';
import { parseLogSearch } from '@web/features/transparency-log/log-search';
import { parseSourceSearch } from '@web/lib/source-search';
import { parseStorySearch } from '@web/lib/story/replay';

export interface Screen {
  readonly path: string;
  /**
   * `operator`: behind the console gate, which asks for a session first; `anyone`: reached before
   * there is a session. Within the console, what a role may do is decided on each screen.
   */
  readonly access: 'operator' | 'anyone';
  /** Each screen is its own chunk, loaded when first shown. */
  readonly page: AsyncRouteComponent<object>;
  /** What the address's query may hold, so a view can be shared as a link. */
  readonly search?: (search: Record<string, unknown>) => object;
  /** Its tab in the main navigation, in this list's order. */
  readonly nav?: string;
  /** `g` then `key` goes here from anywhere; `what` is its line in the shortcuts dialog. */
  readonly goTo?: { readonly key: string; readonly what: string };
}

export const SCREENS = {
  // Home: what waits for this operator across protocols (the inbox); `?item=<id>` opens on one.
  inbox: {
    path: '/',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/inbox/inbox-page'), 'InboxPage'),
    search: parseInboxSearch,
    nav: 'Inbox',
    goTo: { key: 'i', what: 'Go to the inbox' },
  },
  rooms: {
    path: '/rooms',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/rooms/rooms-page'), 'RoomsPage'),
    nav: 'Rooms',
    goTo: { key: 'r', what: 'Go to rooms' },
  },
  room: {
    path: '/rooms/$roomId',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/rooms/room-page'), 'RoomPage'),
    // Timeline filters and the permalink (`?m=<cursor>`).
    search: parseTimelineSearch,
  },
  roomAudit: {
    path: '/rooms/$roomId/audit',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/rooms/audit-page'), 'AuditPage'),
  },
  // Agents under control: credentials, connections, suspension (not /agents, the OSNAP API).
  fleet: {
    path: '/fleet',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/agents/fleet-page'), 'FleetPage'),
    nav: 'Agents',
    goTo: { key: 'a', what: 'Go to agents' },
  },
  // Agora: the agent directory (not /agents, which is the OSNAP API) and threads through the relay.
  directory: {
    path: '/directory',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/agora/directory-page'), 'DirectoryPage'),
    nav: 'Directory',
    goTo: { key: 'd', what: 'Go to the agent directory' },
  },
  threads: {
    path: '/threads',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/agora/threads-page'), 'ThreadsPage'),
    nav: 'Threads',
    goTo: { key: 't', what: 'Go to Agora threads' },
  },
  thread: {
    path: '/threads/$threadId',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/agora/thread-page'), 'ThreadPage'),
    // ?source=<serviceId>: a thread bridged from that external relay (decisions-web.md §15).
    search: parseSourceSearch,
  },
  // Negotiations (RFC 0002) and the transparency log; not under /oap, which is the agents' API.
  negotiations: {
    path: '/negotiations',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/negotiations/negotiations-page'), 'NegotiationsPage'),
    search: parseNegotiationsSearch,
    nav: 'Negotiations',
    goTo: { key: 'n', what: 'Go to negotiations' },
  },
  negotiation: {
    path: '/negotiations/$negotiationId',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/negotiations/negotiation-page'), 'NegotiationPage'),
    // ?source=<serviceId>: a negotiation on that external service (decisions-web.md §15).
    search: parseSourceSearch,
  },
  transparencyLog: {
    path: '/transparency-log',
    access: 'operator',
    page: lazyRouteComponent(
      () => import('@web/features/transparency-log/transparency-log-page'),
      'TransparencyLogPage',
    ),
    search: parseLogSearch,
    nav: 'Log',
    goTo: { key: 'l', what: 'Go to the transparency log' },
  },
  // OACoP: scheduling threads and the task board.
  scheduling: {
    path: '/scheduling',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/scheduling/scheduling-page'), 'SchedulingPage'),
    nav: 'Scheduling',
    goTo: { key: 's', what: 'Go to scheduling' },
  },
  schedulingThread: {
    path: '/scheduling/$threadId',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/scheduling/scheduling-thread-page'), 'SchedulingThreadPage'),
  },
  tasks: {
    path: '/tasks',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/tasks/tasks-page'), 'TasksPage'),
    nav: 'Tasks',
    goTo: { key: 'k', what: 'Go to tasks' },
  },
  // One activity log for people and agents (decisions-server.md §83); a room's audit is its room filter.
  activity: {
    path: '/activity',
    access: 'operator',
    page: lazyRouteComponent(() => import('./activity-screen'), 'ActivityScreen'),
    search: parseActivitySearch,
    nav: 'Activity',
    goTo: { key: 'y', what: 'Go to the activity log' },
  },
  // Who may sign in, and invitations for more (facilitators; decisions-server.md §84); reached from
  // the account menu, the empty inbox and `g o`.
  operators: {
    path: '/settings/operators',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/operators/operators-page'), 'OperatorsPage'),
    goTo: { key: 'o', what: 'Go to operators' },
  },
  // The relays and negotiation services the console bridges.
  services: {
    path: '/settings/services',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/settings/services-page'), 'ServicesPage'),
    nav: 'Services',
  },
  // Your name as other operators see it; reached from the account menu.
  account: {
    path: '/settings/account',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/settings/account-page'), 'AccountPage'),
  },
  // What the inbox tells you about in the browser: notifications and what is muted.
  inboxSettings: {
    path: '/settings/inbox',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/settings/inbox-settings-page'), 'InboxSettingsPage'),
  },
  // The guided demo, and the plain-language story of a room, negotiation or thread.
  demo: {
    path: '/demo',
    access: 'operator',
    page: lazyRouteComponent(() => import('./guided-demo-screen'), 'GuidedDemoScreen'),
    nav: 'Demo',
    goTo: { key: 'm', what: 'Go to the guided demo' },
  },
  story: {
    path: '/story/$kind/$id',
    access: 'operator',
    page: lazyRouteComponent(() => import('@web/features/demo/story-page'), 'StoryPage'),
    // ?replay=1&speed=5: play the story back from the stored history, shareable.
    search: parseStorySearch,
  },
  // Reached from the link the server prints (or `operators invite`), before there is a session.
  enroll: {
    path: '/enroll',
    access: 'anyone',
    page: lazyRouteComponent(() => import('@web/features/identity/enroll-page'), 'EnrollPage'),
  },
} as const satisfies Record<string, Screen>;

export type ScreenId = keyof typeof SCREENS;
type Entry<K extends ScreenId> = (typeof SCREENS)[K];
type PathOfScreensWith<F extends keyof Screen> = {
  [K in ScreenId]: Entry<K> extends Record<F, unknown> ? Entry<K>['path'] : never;
}[ScreenId];
export type NavPath = PathOfScreensWith<'nav'>;
export type GoToPath = PathOfScreensWith<'goTo'>;

const screens = Object.values(SCREENS) as readonly Screen[];

/** The main navigation's tabs, in reading order. */
export const NAV_TABS: readonly { readonly to: NavPath; readonly label: string }[] = screens.flatMap((s) =>
  s.nav === undefined ? [] : [{ to: s.path as NavPath, label: s.nav }],
);

/** The go-to shortcuts: `g` then `key` opens `path`. */
export const GO_TO: readonly { readonly key: string; readonly path: GoToPath; readonly what: string }[] =
  screens.flatMap((s) =>
    s.goTo === undefined ? [] : [{ key: s.goTo.key, path: s.path as GoToPath, what: s.goTo.what }],
  );
