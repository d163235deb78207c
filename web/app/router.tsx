import {
  createRootRoute,
  createRoute,
  createRouter,
  type AnyRoute,
  type ResolveFullPath,
  type ResolveId,
} from '@tanstack/react-router';
import { ConsoleGate } from './console-gate';
import { Layout } from './layout';
import { SCREENS, type Screen, type ScreenId } from './screens';

const rootRoute = createRootRoute({ component: Layout });

// Every operator screen sits under this pathless route, which asks for a session first.
const consoleRoute = createRoute({ getParentRoute: () => rootRoute, id: 'console', component: ConsoleGate });

/** A screen's route under `parent`, typed by its entry: path, params and search stay literal. */
function screenRoute<TParent extends AnyRoute, const S extends Screen>(parent: TParent, screen: S) {
  type Path = S['path'];
  return createRoute<
    unknown,
    TParent,
    Path,
    ResolveFullPath<TParent, Path>,
    string,
    ResolveId<TParent, string, Path>,
    S['search']
  >({
    getParentRoute: () => parent,
    path: screen.path,
    validateSearch: screen.search,
    component: screen.page,
  });
}

type Entry<K extends ScreenId> = (typeof SCREENS)[K];
type IdsFor<A extends Screen['access']> = { [K in ScreenId]: Entry<K>['access'] extends A ? K : never }[ScreenId];
type RoutesFor<TParent extends AnyRoute, A extends Screen['access']> = {
  [K in IdsFor<A>]: ReturnType<typeof screenRoute<TParent, Entry<K>>>;
};

// Object.entries forgets each key's own entry type; the mapped type above restores it, which is
// what lets `Link`, `useParams` and `useSearch` check every screen's path and query.
function routesFor<TParent extends AnyRoute, A extends Screen['access']>(
  parent: TParent,
  access: A,
): RoutesFor<TParent, A> {
  const screens = Object.entries(SCREENS) as [ScreenId, Screen][];
  return Object.fromEntries(
    screens.filter(([, s]) => s.access === access).map(([id, s]) => [id, screenRoute(parent, s)]),
  ) as unknown as RoutesFor<TParent, A>;
}

export const router = createRouter({
  routeTree: rootRoute.addChildren({
    console: consoleRoute.addChildren(routesFor(consoleRoute, 'operator')),
    ...routesFor(rootRoute, 'anyone'),
  }),
  defaultNotFoundComponent: () => (
    <div role="alert" className="mx-auto max-w-xl">
      <h1 className="text-xl font-semibold">Nothing here</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        This address does not match any screen. Use the navigation above.
      </p>
    </div>
  ),
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
