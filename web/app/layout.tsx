import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useLocation } from '@tanstack/react-router';
import { healthQuery } from '@web/lib/api/health';
import { useKeySupport } from '@web/lib/identity/key-support';
import { useSession } from '@web/lib/identity/use-session';
import { StatusDot } from '@web/components/ui/status-dot';
import { ThemeSwitch } from '@web/components/ui/theme-switch';
import { Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { KeyUnsupportedScreen } from '@web/features/identity/key-unsupported-screen';
import { InboxSignals } from '@web/features/inbox/inbox-signals';
import { AccountMenu } from './identity-parts';
import { NAV_TABS } from './screens';
import { PaletteLauncher } from './palette-launcher';
import { Shortcuts } from './shortcuts-dialog';

/**
 * Keeps the current screen's tab in sight when the tab row scrolls sideways (narrow windows): moved
 * by scrollLeft alone, so the page itself never scrolls.
 */
function useCurrentTabInView(shown: boolean) {
  const nav = useRef<HTMLElement>(null);
  const pathname = useLocation({ select: (l) => l.pathname });
  useEffect(() => {
    const row = nav.current;
    const tab = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !tab) return;
    const left = tab.offsetLeft - row.offsetLeft;
    if (left < row.scrollLeft || left + tab.offsetWidth > row.scrollLeft + row.clientWidth)
      row.scrollLeft = Math.max(0, left - 24);
  }, [pathname, shown]);
  return nav;
}

/**
 * Whether the tab row hides tabs to its left or right, so a fade on that side says it scrolls
 * (a cropped word alone did not).
 */
function useHiddenTabs(nav: RefObject<HTMLElement | null>, shown: boolean) {
  const [hidden, setHidden] = useState({ left: false, right: false });
  useEffect(() => {
    const row = nav.current;
    if (!row) return;
    const measure = () => {
      const left = row.scrollLeft > 1;
      const right = row.scrollLeft + row.clientWidth < row.scrollWidth - 1;
      setHidden((was) => (was.left === left && was.right === right ? was : { left, right }));
    };
    measure();
    row.addEventListener('scroll', measure, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(row);
    return () => {
      row.removeEventListener('scroll', measure);
      resized.disconnect();
    };
  }, [nav, shown]);
  return hidden;
}

const FADE = 'pointer-events-none absolute inset-y-0 w-10 from-white to-transparent dark:from-slate-900';

export function Layout() {
  const health = useQuery(healthQuery);
  const session = useSession();
  const nav = useCurrentTabInView(Boolean(session));
  const hiddenTabs = useHiddenTabs(nav, Boolean(session));
  // No screen runs before the check: none may make or use a key this browser cannot keep safely.
  const keySupport = useKeySupport();
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-2">
        Skip to content
      </a>
      {/* One line from 1536 px up. Narrower, the navigation is a row of tabs of its own under the
          brand and the status, scrolling sideways if it must, instead of wrapping wherever the
          width runs out. */}
      <header className="border-b border-slate-200 bg-white px-4 sm:px-6 dark:border-slate-800 dark:bg-slate-900">
        <div className="flex flex-wrap items-center gap-x-6">
          <Link to="/" className="flex h-14 items-center gap-2 font-semibold tracking-tight">
            <img src="/favicon.svg" alt="" className="size-6" />
            Switchboard
          </Link>
          {session ? (
            <div className="relative order-last -mb-px w-full min-w-0 2xl:order-none 2xl:w-auto 2xl:self-stretch">
              <nav
                ref={nav}
                aria-label="Main"
                className="flex h-full gap-5 overflow-x-auto text-sm [scrollbar-width:none]"
              >
                {NAV_TABS.map(({ to, label }) => (
                  <Link
                    key={to}
                    to={to}
                    activeOptions={{ exact: to === '/' }}
                    className="flex items-center whitespace-nowrap border-b-2 border-transparent py-2.5 text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:text-slate-400 dark:hover:border-slate-600 dark:hover:text-white"
                    activeProps={{
                      className:
                        'font-medium !border-teal-600 !text-teal-700 dark:!border-teal-400 dark:!text-teal-300',
                    }}
                  >
                    {label}
                  </Link>
                ))}
              </nav>
              {hiddenTabs.left ? (
                <span aria-hidden data-testid="tabs-more-left" className={`${FADE} left-0 bg-gradient-to-r`} />
              ) : null}
              {hiddenTabs.right ? (
                <span aria-hidden data-testid="tabs-more-right" className={`${FADE} right-0 bg-gradient-to-l`} />
              ) : null}
            </div>
          ) : null}
          {/* Wraps on a phone (390 px) rather than widening the page. */}
          <div className="ml-auto flex min-h-14 max-w-full flex-wrap items-center gap-x-3 gap-y-2 sm:gap-x-4">
            {health.isSuccess ? (
              <StatusDot compact tone="ok" label={`Server ${health.data.version}`} />
            ) : health.isError ? (
              <StatusDot compact tone="down" label="Server unreachable" />
            ) : (
              <StatusDot compact tone="idle" label="Connecting…" />
            )}
            {session ? <PaletteLauncher /> : null}
            <ThemeSwitch />
            {session ? (
              <Suspense fallback={null}>
                <AccountMenu session={session} />
              </Suspense>
            ) : null}
          </div>
        </div>
      </header>
      <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 sm:py-8">
        {keySupport.data === true ? <Outlet /> : keySupport.data === false ? <KeyUnsupportedScreen /> : null}
      </main>
      {session ? <Shortcuts /> : null}
      {session ? <InboxSignals /> : null}
    </div>
  );
}
