// First-load benchmark for the console's home (npx tsx bench/first-load.ts; `npm run bench:first-load`).
//
// The compiled server (dist/server, under plain node, as `npm start` runs it) serving the built
// console (dist/web; both from `npm run build`) on a temporary DATA_DIR, and Chromium headless
// signed in as a facilitator (a session cookie made the way login makes it). One cold load of `/`
// (the Inbox) in a fresh browser context, then a reload of it in the same context. For each it
// reports, from the DevTools protocol's network events (what went over the wire, HTTP/1.1):
// - requests made, and those answered from the browser's cache without asking;
// - body bytes as sent (compressed where the server compressed), header bytes (the raw status
//   line and headers) and the headers' share of the two;
// - answers 304 Not Modified (the reload's revalidations).
// In-run ratio: the reload's bytes against the cold load's. Aim (docs/benchmarks.md, "First
// load"): headers ≤ 10 % of a cold load's bytes; every file the reload revalidates is a 304.
// No demo agents: the load is the console's own. `FIRST_LOAD_LIST=1` prints every request
// (status, from cache, header bytes, bytes received, URL). The MQTT WebSocket's frames are not counted.
import '../server/test-support/quiet-logs';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { openSqliteStore } from '../server/store/sqlite/sqlite-store';
import { sessionCookie } from '../server/test-support/sessions';
import { startServerProcess, stopped } from '../server/test-support/server-process';

const SETTLE_MS = 1_500;
const SETTLE_LIMIT_MS = 20_000;
const LIST = process.env.FIRST_LOAD_LIST === '1';

interface Exchange {
  url: string;
  status?: number;
  headerBytes: number;
  /** Everything received for it, headers included, once it finished (or so far, for a stream). */
  wireBytes: number;
  finished: boolean;
  fromCache: boolean;
}

interface LoadFigures {
  requests: number;
  fromCache: number;
  notModified: number;
  bodyBytes: number;
  headerBytes: number;
  /** Answers still open when the page settled (the inbox's event stream). */
  open: number;
  byKind: Map<string, { count: number; headerBytes: number; bodyBytes: number }>;
}

/** Watches one page's network through CDP, from now until `figures()`. */
async function watchNetwork(page: Page): Promise<{ figures: () => LoadFigures; lastActivity: () => number }> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const seen = new Map<string, Exchange>();
  let last = performance.now();
  const touch = () => (last = performance.now());
  const of = (requestId: string) => seen.get(requestId);
  cdp.on('Network.requestWillBeSent', (e) => {
    touch();
    if (!e.request.url.startsWith('http')) return;
    // A redirect reuses the id; none are expected, so the last request under an id counts.
    seen.set(e.requestId, { url: e.request.url, headerBytes: 0, wireBytes: 0, finished: false, fromCache: false });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const x = of(e.requestId);
    if (x) x.fromCache = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    touch();
    const x = of(e.requestId);
    if (!x) return;
    x.status ??= e.response.status;
    if (e.response.fromDiskCache || e.response.fromPrefetchCache) x.fromCache = true;
  });
  // The raw status line and headers as received, only for answers that came from the network; it
  // may arrive before the request's other events, so it is kept apart and joined at the end.
  const raw = new Map<string, { status: number; headerBytes: number }>();
  cdp.on('Network.responseReceivedExtraInfo', (e) => {
    raw.set(e.requestId, { status: e.statusCode, headerBytes: Buffer.byteLength(e.headersText ?? '') });
  });
  cdp.on('Network.dataReceived', (e) => {
    touch();
    const x = of(e.requestId);
    if (x && !x.finished) x.wireBytes += e.encodedDataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    touch();
    const x = of(e.requestId);
    if (!x) return;
    x.finished = true;
    x.wireBytes = e.encodedDataLength;
  });
  cdp.on('Network.loadingFailed', (e) => {
    touch();
    const x = of(e.requestId);
    if (x) x.finished = true;
  });
  await cdp.send('Network.enable');
  return {
    lastActivity: () => last,
    figures: () => {
      const figures: LoadFigures = {
        requests: 0,
        fromCache: 0,
        notModified: 0,
        bodyBytes: 0,
        headerBytes: 0,
        open: 0,
        byKind: new Map(),
      };
      for (const [id, x] of seen) {
        const headers = raw.get(id);
        if (headers) Object.assign(x, headers);
        if (LIST)
          console.log(
            `  ${x.status ?? '-'} ${x.fromCache ? 'cache' : ''} ${x.headerBytes} ${x.wireBytes} ${x.finished ? '' : 'open'} ${x.url}`,
          );
        figures.requests++;
        if (x.fromCache || x.headerBytes === 0) {
          figures.fromCache++;
          continue;
        }
        if (x.status === 304) figures.notModified++;
        if (!x.finished) figures.open++;
        // Chromium counts the headers in what it received for an HTTP/1.1 answer.
        const body = Math.max(0, x.wireBytes - x.headerBytes);
        figures.bodyBytes += body;
        figures.headerBytes += x.headerBytes;
        const kind = kindOf(x.url);
        const k = figures.byKind.get(kind) ?? { count: 0, headerBytes: 0, bodyBytes: 0 };
        k.count++;
        k.headerBytes += x.headerBytes;
        k.bodyBytes += body;
        figures.byKind.set(kind, k);
      }
      return figures;
    },
  };
}

const SERVER_PATHS = ['/api/', '/health', '/ready', '/events', '/agents', '/oap/', '/openapi.json'];

function kindOf(url: string): string {
  const path = new URL(url).pathname;
  if (path.startsWith('/assets/')) return 'hashed assets';
  if (SERVER_PATHS.some((prefix) => path.startsWith(prefix))) return 'API';
  if (path === '/' || !/\.[a-z0-9]+$/i.test(path)) return 'shell';
  return 'public files';
}

/** Waits for the Inbox, then until the network has been quiet for SETTLE_MS. */
async function settle(page: Page, lastActivity: () => number): Promise<void> {
  await page.getByRole('heading', { name: 'Inbox', exact: true }).waitFor({ timeout: SETTLE_LIMIT_MS });
  const start = performance.now();
  while (performance.now() - lastActivity() < SETTLE_MS && performance.now() - start < SETTLE_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const share = (f: LoadFigures) => f.headerBytes / Math.max(1, f.headerBytes + f.bodyBytes);

function print(label: string, f: LoadFigures): void {
  console.log(
    `${label}: ${f.requests} requests (${f.fromCache} from cache, ${f.notModified} × 304, ${f.open} still open); ` +
      `body ${kb(f.bodyBytes)}, headers ${kb(f.headerBytes)}: headers ${(share(f) * 100).toFixed(1)} % of the bytes`,
  );
  for (const [kind, k] of [...f.byKind].sort()) {
    console.log(
      `  ${kind.padEnd(14)} ${String(k.count).padStart(3)} answers, headers ${String(Math.round(k.headerBytes / k.count)).padStart(4)} B each, body ${kb(k.bodyBytes)}`,
    );
  }
}

async function main(): Promise<void> {
  for (const built of ['dist/web/index.html', 'dist/server/main.js']) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-first-load-'));
  const store = openSqliteStore({ file: join(dataDir, 'switchboard.sqlite') });
  const cookie = await sessionCookie(store, 'did:key:z6MkBenchFirstLoad', 'facilitator');
  await store.close();
  const server = await startServerProcess({ DATA_DIR: dataDir, DEMO: '0' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  let context: BrowserContext | undefined;
  try {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();

    const cold = await watchNetwork(page);
    await page.goto(`${server.url}/`);
    await settle(page, cold.lastActivity);
    const coldFigures = cold.figures();

    const warm = await watchNetwork(page);
    await page.reload();
    await settle(page, warm.lastActivity);
    const warmFigures = warm.figures();

    print('cold first load of /', coldFigures);
    print('warm reload of /', warmFigures);
    const bytes = (f: LoadFigures) => f.bodyBytes + f.headerBytes;
    console.log(
      `reload against the cold load: ${(bytes(warmFigures) / bytes(coldFigures)).toFixed(3)}× the bytes; ` +
        `aim: headers ≤ 10 % of the cold load (${share(coldFigures) <= 0.1 ? 'met' : 'NOT met'}), ` +
        `revalidated files answered 304: ${warmFigures.notModified}`,
    );
  } finally {
    await context?.close();
    await browser.close();
    await stopped(server, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
