import { useQuery } from '@tanstack/react-query';
import { Link, Outlet } from '@tanstack/react-router';
import { healthQuery } from '@web/lib/api/health';
import { useSession } from '@web/lib/identity/use-session';
import { StatusDot } from '@web/components/ui/status-dot';
import { ThemeSwitch } from '@web/components/ui/theme-switch';
import { Suspense } from 'react';
import { AccountMenu } from './identity-parts';
import { Shortcuts } from './shortcuts-dialog';

/** The main navigation, in reading order; each screen area adds its entry here. */
const NAV = [
  { to: '/', label: 'Overview' },
  { to: '/rooms', label: 'Rooms' },
  { to: '/directory', label: 'Directory' },
  { to: '/threads', label: 'Threads' },
  { to: '/negotiations', label: 'Negotiations' },
  { to: '/transparency-log', label: 'Log' },
  { to: '/scheduling', label: 'Scheduling' },
  { to: '/tasks', label: 'Tasks' },
  { to: '/settings/services', label: 'Services' },
  { to: '/demo', label: 'Demo' },
] as const;

export function Layout() {
  const health = useQuery(healthQuery);
  const session = useSession();
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-2">
        Skip to content
      </a>
      <header className="flex min-h-14 flex-wrap items-center gap-x-5 gap-y-2 border-b border-slate-200 bg-white px-6 py-3 dark:border-slate-800 dark:bg-slate-900">
        <Link to="/" className="flex items-center gap-2 font-semibold tracking-tight">
          <img src="/favicon.svg" alt="" className="size-6" />
          Switchboard
        </Link>
        {session ? (
          <nav aria-label="Main" className="flex gap-4 text-sm">
            {NAV.map(({ to, label }) => (
              <Link key={to} to={to} activeOptions={{ exact: to === '/' }} className="text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white" activeProps={{ className: 'font-medium !text-teal-700 dark:!text-teal-300' }}>
                {label}
              </Link>
            ))}
          </nav>
        ) : null}
        <div className="ml-auto flex items-center gap-4">
          {health.isSuccess ? (
            <StatusDot tone="ok" label={`Server ${health.data.version}`} />
          ) : health.isError ? (
            <StatusDot tone="down" label="Server unreachable" />
          ) : (
            <StatusDot tone="idle" label="Connecting…" />
          )}
          <ThemeSwitch />
          {session ? (
            <Suspense fallback={null}>
              <AccountMenu session={session} />
            </Suspense>
          ) : null}
        </div>
      </header>
      <main id="main" className="flex-1 px-6 py-8">
        <Outlet />
      </main>
      {session ? <Shortcuts /> : null}
    </div>
  );
}
