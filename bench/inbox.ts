// Inbox benchmark (npx tsx bench/inbox.ts; `npm run bench:inbox`), needs `npm run build`.
//
// A real server (empty DATA_DIR, no demo) and real Chromium, signed in with a facilitator session
// cookie made the way login makes it. The inbox's list and stream are answered by page.route, so
// no test-only server code is needed: GET /api/inbox gives N pending items, and the stream stays
// quiet until the bench sends one upsert. It reports, for 10,000 items against 100 in the same run:
// 1. first render: navigation start to the first item row in the DOM, as a ratio to the baseline;
// 2. long tasks (PerformanceObserver 'longtask', > 50 ms) during that first render;
// 3. one live upsert (a new most-urgent item) to its row on screen, and the long tasks meanwhile.
// First: the in-process server logs nothing, as in tests (LOG_LEVEL shows it).
import '../server/test-support/quiet-logs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Route } from '@playwright/test';
import type { InboxItem, InboxList } from '../shared/contract/inbox';
import { startServer } from '../e2e/support/server';
import { openSqliteStore } from '../server/store/sqlite/sqlite-store';
import { sessionCookie } from '../server/test-support/sessions';

const BIG = Number(process.env.INBOX_ITEMS ?? 10_000);
const BASELINE = 100;
const RUNS = Number(process.env.INBOX_RUNS ?? 3);
const KINDS = ['review', 'question', 'grant', 'rejects'] as const;

const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-inbox-'));

function item(i: number, now: number): InboxItem {
  const kind = KINDS[i % KINDS.length]!;
  const roomId = `room${i % 40}`;
  const agentId = `agent.bench${i % 13}`;
  const base = {
    id: `${kind}:${roomId}:${i}`,
    urgency: i % 3 === 0 ? ('now' as const) : i % 3 === 1 ? ('soon' as const) : ('info' as const),
    quote:
      i % 2 === 0 ? `Candidate ${i}: ${'the cache was cold and the retries piled up; '.repeat(1 + (i % 6))}` : null,
    since: now - (i + 1) * 1_000,
    dueAt: null,
    href: `/rooms/${roomId}`,
    claim: null,
  };
  switch (kind) {
    case 'review':
      return {
        ...base,
        kind,
        title: `${agentId}'s result waits for review in ${roomId}`,
        ref: { kind, roomId, candidateId: String(i), agentId },
      };
    case 'question':
      return {
        ...base,
        kind,
        title: `${agentId} asks ${roomId} a question`,
        ref: { kind, roomId, messageId: `msg_${i}`, agentId },
      };
    case 'grant':
      return {
        ...base,
        kind,
        title: `${agentId}'s mic in ${roomId} runs out soon`,
        ref: { kind, roomId, grantId: `g${i}`, agentId, expiresAt: now + 60_000, budgetLeft: 2 },
      };
    case 'rejects':
      return {
        ...base,
        kind,
        title: `${agentId} was rejected 6 times in ${roomId}`,
        ref: { kind, roomId, agentId, count: 6 },
      };
  }
}

const summary = { roomsActive: 40, agentsOnline: 13, rejectsLastHour: 6 };

interface Run {
  readonly firstRowMs: number;
  readonly renderTasks: number[];
  readonly upsertMs: number;
  readonly upsertTasks: number[];
  readonly domRows: number;
}

async function measure(browser: Browser, url: string, cookie: string, count: number): Promise<Run> {
  const now = Date.now();
  const list: InboxList = { items: Array.from({ length: count }, (_, i) => item(i, now)), summary, version: 1 };
  const body = JSON.stringify(list);
  let live = false;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url }]);
  await context.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[]; __firstRowAt: number | null };
    w.__longTasks = [];
    w.__firstRowAt = null;
    const rows = new MutationObserver(() => {
      if (w.__firstRowAt === null && document.querySelector('[data-testid="inbox-item"]')) {
        w.__firstRowAt = performance.now();
        rows.disconnect();
      }
    });
    rows.observe(document, { childList: true, subtree: true });
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const upsert = {
    type: 'upsert',
    version: 2,
    item: {
      ...item(count, now),
      id: 'review:bench:live',
      urgency: 'now',
      since: now - 1_000_000_000,
      title: 'LIVE ITEM',
    },
  };
  await context.route('**/api/inbox', (route: Route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body }),
  );
  // Quiet until `live`: an empty answer, retried by the browser every 200 ms; then the one upsert.
  await context.route('**/api/inbox/stream', (route: Route) => {
    return route.fulfill({
      status: 200,
      contentType: 'text/event-stream',
      body: live ? `retry: 600000\n\nevent: upsert\ndata: ${JSON.stringify(upsert)}\n\n` : 'retry: 200\n\n',
    });
  });
  const page = await context.newPage();
  const takeTasks = () =>
    page.evaluate(() => {
      const w = window as unknown as { __longTasks: number[] };
      const out = w.__longTasks;
      w.__longTasks = [];
      return out;
    });
  await page.goto(`${url}/`);
  await page.waitForFunction(() => (window as unknown as { __firstRowAt: number | null }).__firstRowAt !== null, null, {
    timeout: 60_000,
  });
  await page.waitForTimeout(500);
  const firstRowMs = await page.evaluate(() => (window as unknown as { __firstRowAt: number }).__firstRowAt);
  const renderTasks = await takeTasks();
  const domRows = await page.locator('[data-testid="inbox-item"]').count();

  const t0 = await page.evaluate(() => performance.now());
  live = true;
  await page.waitForFunction(
    () => document.querySelector('[data-testid="inbox-item"]')?.textContent?.includes('LIVE ITEM'),
    null,
    {
      timeout: 30_000,
      polling: 'raf',
    },
  );
  const upsertMs = (await page.evaluate(() => performance.now())) - t0;
  await page.waitForTimeout(300);
  const upsertTasks = await takeTasks();
  await context.close();
  // The upsert waits for the browser's next stream retry (up to 200 ms): that wait is not rendering.
  return { firstRowMs, renderTasks, upsertMs, upsertTasks, domRows };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const max = (xs: number[]) => (xs.length ? Math.max(...xs) : 0);
const fmt = (n: number) => n.toFixed(0);

async function main(): Promise<void> {
  const store = openSqliteStore({ file: join(dataDir, 'switchboard.sqlite') });
  const cookie = await sessionCookie(store, 'did:key:z6MkBenchInbox', 'facilitator');
  await store.close();
  const server = await startServer({ DATA_DIR: dataDir, DEMO: '0' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const small: Run[] = [];
    const big: Run[] = [];
    // Interleaved, so a busy machine weighs on both sides alike.
    for (let r = 0; r < RUNS; r++) {
      small.push(await measure(browser, server.url, cookie, BASELINE));
      big.push(await measure(browser, server.url, cookie, BIG));
    }
    const first = (runs: Run[]) => median(runs.map((x) => x.firstRowMs));
    const tasks = (runs: Run[], k: 'renderTasks' | 'upsertTasks') => runs.flatMap((x) => x[k]);
    const lines = [
      `## Inbox (npm run bench:inbox)`,
      ``,
      `| measure (median of ${RUNS} cold loads each) | ${BASELINE} items | ${BIG.toLocaleString('en')} items |`,
      `| --- | --- | --- |`,
      `| navigation → first item row | ${fmt(first(small))} ms | ${fmt(first(big))} ms (${(first(big) / first(small)).toFixed(2)}×) |`,
      `| long tasks during first render (all runs) | ${tasks(small, 'renderTasks').length} (max ${fmt(max(tasks(small, 'renderTasks')))} ms) | ${tasks(big, 'renderTasks').length} (max ${fmt(max(tasks(big, 'renderTasks')))} ms) |`,
      `| one live upsert → its row on screen (includes ≤ 200 ms stream retry) | ${fmt(median(small.map((x) => x.upsertMs)))} ms | ${fmt(median(big.map((x) => x.upsertMs)))} ms |`,
      `| long tasks around the upsert (all runs) | ${tasks(small, 'upsertTasks').length} (max ${fmt(max(tasks(small, 'upsertTasks')))} ms) | ${tasks(big, 'upsertTasks').length} (max ${fmt(max(tasks(big, 'upsertTasks')))} ms) |`,
      `| item rows in the DOM (virtualised) | ${small[0]!.domRows} | ${big[0]!.domRows} |`,
    ];
    console.log(lines.join('\n'));
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
