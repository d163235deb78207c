import { createRootRoute, createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { parseNegotiationsSearch } from '@web/features/negotiations/list-search';
import { parseTimelineSearch } from '@web/features/rooms/timeline-filter';
import { parseSourceSearch } from '@web/lib/source-search';
import { parseStorySearch } from '@web/lib/story/replay';
import { parseLogSearch } from '@web/features/transparency-log/log-search';
import { ConsoleGate } from './console-gate';
import { Layout } from './layout';

const rootRoute = createRootRoute({ component: Layout });

// Every console screen sits under this pathless route, which asks for a session first.
const consoleRoute = createRoute({ getParentRoute: () => rootRoute, id: 'console', component: ConsoleGate });

// Route-level code splitting: each screen is its own chunk.
const overviewRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/',
  component: lazyRouteComponent(() => import('@web/features/overview/overview-page'), 'OverviewPage'),
});

const roomsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/rooms',
  component: lazyRouteComponent(() => import('@web/features/rooms/rooms-page'), 'RoomsPage'),
});

const roomRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/rooms/$roomId',
  // Timeline filters and the permalink (`?m=<cursor>`) live in the URL, so a view can be shared.
  validateSearch: parseTimelineSearch,
  component: lazyRouteComponent(() => import('@web/features/rooms/room-page'), 'RoomPage'),
});

const roomAuditRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/rooms/$roomId/audit',
  component: lazyRouteComponent(() => import('@web/features/rooms/audit-page'), 'AuditPage'),
});

// Agora: the agent directory (client path /directory, since GET /agents is the OSNAP API) and
// threads through the relay.
const directoryRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/directory',
  component: lazyRouteComponent(() => import('@web/features/agora/directory-page'), 'DirectoryPage'),
});

const threadsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/threads',
  component: lazyRouteComponent(() => import('@web/features/agora/threads-page'), 'ThreadsPage'),
});

const threadRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/threads/$threadId',
  // ?source=<serviceId>: a thread bridged from that external relay.
  validateSearch: parseSourceSearch,
  component: lazyRouteComponent(() => import('@web/features/agora/thread-page'), 'ThreadPage'),
});

// Negotiations (RFC 0002) and the transparency log; not under /oap, which is the agents' API.
const negotiationsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/negotiations',
  validateSearch: parseNegotiationsSearch,
  component: lazyRouteComponent(() => import('@web/features/negotiations/negotiations-page'), 'NegotiationsPage'),
});

const negotiationRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/negotiations/$negotiationId',
  // ?source=<serviceId>: a negotiation on that external service.
  validateSearch: parseSourceSearch,
  component: lazyRouteComponent(() => import('@web/features/negotiations/negotiation-page'), 'NegotiationPage'),
});

const transparencyLogRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/transparency-log',
  validateSearch: parseLogSearch,
  component: lazyRouteComponent(() => import('@web/features/transparency-log/transparency-log-page'), 'TransparencyLogPage'),
});

// OACoP: scheduling threads and the task board.
const schedulingRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/scheduling',
  component: lazyRouteComponent(() => import('@web/features/scheduling/scheduling-page'), 'SchedulingPage'),
});

const schedulingThreadRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/scheduling/$threadId',
  component: lazyRouteComponent(() => import('@web/features/scheduling/scheduling-thread-page'), 'SchedulingThreadPage'),
});

const tasksRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/tasks',
  component: lazyRouteComponent(() => import('@web/features/tasks/tasks-page'), 'TasksPage'),
});

// Settings: the relays and negotiation services the console bridges.
const servicesRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/settings/services',
  component: lazyRouteComponent(() => import('@web/features/settings/services-page'), 'ServicesPage'),
});

// The guided demo and the plain-language story of a room, negotiation or thread.
const demoRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/demo',
  component: lazyRouteComponent(() => import('@web/features/demo/demo-page'), 'DemoPage'),
});

const storyRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/story/$kind/$id',
  // ?replay=1&speed=5: play the story back from the stored history, shareable.
  validateSearch: parseStorySearch,
  component: lazyRouteComponent(() => import('@web/features/demo/story-page'), 'StoryPage'),
});

// Reached from the link the server prints (or `operators invite`), before there is a session.
const enrollRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/enroll',
  component: lazyRouteComponent(() => import('@web/features/identity/enroll-page'), 'EnrollPage'),
});

export const router = createRouter({
  routeTree: rootRoute.addChildren([consoleRoute.addChildren([overviewRoute, roomsRoute, roomRoute, roomAuditRoute, directoryRoute, threadsRoute, threadRoute, negotiationsRoute, negotiationRoute, transparencyLogRoute, schedulingRoute, schedulingThreadRoute, tasksRoute, servicesRoute, demoRoute, storyRoute]), enrollRoute]),
  defaultNotFoundComponent: () => (
    <div role="alert" className="mx-auto max-w-xl">
      <h1 className="text-xl font-semibold">Nothing here</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">This address does not match any screen. Use the navigation above.</p>
    </div>
  ),
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
