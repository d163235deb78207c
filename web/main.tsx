// The console boots in steps, each evaluated in its own task. Evaluating the whole entry graph at
// once (zod and its schemas, React, the router, the layout) was one 45–55 ms task on this machine,
// a long task on every load (no task over 50 ms while a room opens, decisions-web.md §7). Splitting
// the evaluation changes nothing else: the chunks are fetched up front, in parallel, as before.
// First: zod's configuration, before any chunk that builds a schema is evaluated.
import './app/zod-config';
import './app/styles.css';
import { setNonce } from 'get-nonce';
import { warmIntl } from './lib/warm-intl';

// The server's CSP admits a <style> element only with this page's nonce (decisions-server.md §66):
// the dialogs' scroll lock writes one, and takes the nonce from here.
setNonce(document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '');

/** Lets the browser run input and rendering between two steps. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

await import('react-dom/client');
await nextTask();
warmIntl();
await nextTask();
// The route tree and the search-parameter schemas, then the layout and the mount.
const { router } = await import('./app/router');
await nextTask();
// The current screen's code is fetched and evaluated now, in tasks of its own: left to the first
// render, inserting its preload links and evaluating it made that render a long task.
const [routes] = router.getMatchedRoutes(location.pathname);
await Promise.all(routes.flatMap((route) => router.loadRouteChunk(route) ?? [])).catch(() => undefined);
await nextTask();
const { boot } = await import('./app/boot');
await nextTask();
boot();
