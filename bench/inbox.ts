// Inbox benchmark (npx tsx bench/inbox.ts; `npm run bench:inbox`), needs `npm run build`.
//
// Two real servers (the compiled server, no demo), each on a store seeded before it starts with
// pending review-mode candidates spread over 40 rooms: 100 on one, INBOX_ITEMS (10,000) on the
// other. The inbox rebuilds its items from the store at start, as after any restart, so the list
// the console reads is the server's own. It reports, 10,000 items against 100 in the same run:
// 1. the server's own GET /api/inbox over HTTP (session cookie, keep-alive), median of
//    INBOX_READS (20) reads after a warm-up, the two servers in turn;
// 2. in real Chromium, signed in with a facilitator session cookie made the way login makes it,
//    INBOX_RUNS (3) cold loads each: navigation start to the first item row in the DOM, and the
//    long tasks (PerformanceObserver 'longtask', > 50 ms) during that first render;
// 3. one live change: the first item rejected over the console's API (as its Reject button does)
//    until that row is gone from the screen (the decision, the gateway's notice, the inbox's
//    stream and the render), and the long tasks meanwhile.
// First: the in-process server logs nothing, as in tests (LOG_LEVEL shows it).
import '../server/test-support/quiet-logs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { startServer, type RunningServer } from '../e2e/support/server';
import { openSqliteStore } from '../server/store/sqlite/sqlite-store';
import { sessionCookie } from '../server/test-support/sessions';
import { failBench, printBenchResult } from './bench-result';

const BIG = Number(process.env.INBOX_ITEMS ?? 10_000);
const BASELINE = 100;
const RUNS = Number(process.env.INBOX_RUNS ?? 3);
const READS = Number(process.env.INBOX_READS ?? 20);
const ROOMS = 40;
const encoder = new TextEncoder();

/** The first `runs` oldest items: each run rejects the one then first in the inbox. */
interface Seeded {
  readonly oldest: readonly { readonly roomId: string; readonly id: number; readonly mark: string }[];
}

/** A store holding `count` pending review items, the oldest first; returns them and a cookie. */
async function seed(dataDir: string, count: number, runs: number): Promise<Seeded & { cookie: string }> {
  const store = openSqliteStore({ file: join(dataDir, 'switchboard.sqlite') });
  try {
    for (let r = 0; r < ROOMS; r++)
      await store.rooms.ensureRoom({ id: `room${r}`, name: `Bench room ${r}`, moderation: 'review' });
    const now = Date.now();
    const oldest: Seeded['oldest'][number][] = [];
    for (let i = 0; i < count; i++) {
      const roomId = `room${i % ROOMS}`;
      const agentId = `agent.bench${i % 13}`;
      const mark = `[item ${i}]`;
      const envelope = {
        id: `cand_${i}`,
        type: 'result',
        room_id: roomId,
        from: { kind: 'agent', id: agentId },
        ts: Math.floor(now / 1000),
        payload: {
          task_id: `t${i % 50}`,
          message_type: 'progress',
          content: { text: `${mark} ${'the cache was cold and the retries piled up; '.repeat(1 + (i % 6))}` },
        },
      };
      const item = await store.rooms.addReviewItem({
        roomId,
        agentId,
        taskId: `t${i % 50}`,
        messageId: envelope.id,
        payload: encoder.encode(JSON.stringify(envelope)),
        submittedAt: now - (count - i) * 1_000,
      });
      if (i < runs) oldest.push({ roomId, id: item.id, mark });
    }
    const cookie = await sessionCookie(store, 'did:key:z6MkBenchInbox', 'facilitator');
    return { oldest, cookie };
  } finally {
    await store.close();
  }
}

interface Side extends Seeded {
  readonly count: number;
  readonly server: RunningServer;
  readonly cookie: string;
  readonly dataDir: string;
}

interface Run {
  readonly firstRowMs: number;
  readonly renderTasks: number[];
  readonly upsertMs: number;
  readonly upsertTasks: number[];
  readonly domRows: number;
}

/** GET /api/inbox, timed from the request to the whole body read; checks the item count. */
async function timedList(side: Side, expected: number): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(`${side.server.url}/api/inbox`, { headers: { cookie: side.cookie } });
  const body = await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET /api/inbox answered ${res.status}`);
  const items = (JSON.parse(Buffer.from(body).toString()) as { items: unknown[] }).items.length;
  if (items !== expected) throw new Error(`GET /api/inbox listed ${items} items, not ${expected}`);
  return { ms, bytes: body.byteLength };
}

async function measure(browser: Browser, side: Side, run: number): Promise<Run> {
  const url = side.server.url;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [name, value] = side.cookie.split('=') as [string, string];
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
  const page = await context.newPage();
  try {
    const takeTasks = () =>
      page.evaluate(() => {
        const w = window as unknown as { __longTasks: number[] };
        const out = w.__longTasks;
        w.__longTasks = [];
        return out;
      });
    await page.goto(`${url}/`);
    await page.waitForFunction(
      () => (window as unknown as { __firstRowAt: number | null }).__firstRowAt !== null,
      null,
      { timeout: 60_000 },
    );
    const first = side.oldest[run]!;
    // The first row is this run's oldest item: the one the live change removes.
    await page.waitForFunction(
      (mark) => document.querySelector('[data-testid="inbox-item"]')?.textContent?.includes(mark),
      first.mark,
      { timeout: 30_000 },
    );
    await page.waitForTimeout(500);
    const firstRowMs = await page.evaluate(() => (window as unknown as { __firstRowAt: number }).__firstRowAt);
    const renderTasks = await takeTasks();
    const domRows = await page.locator('[data-testid="inbox-item"]').count();

    const t0 = await page.evaluate(() => performance.now());
    const gone = page.waitForFunction(
      (mark) =>
        document.querySelector('[data-testid="inbox-item"]')?.textContent?.includes(mark) === false &&
        performance.now(),
      first.mark,
      { timeout: 30_000, polling: 'raf' },
    );
    const res = await fetch(`${url}/api/rooms/${first.roomId}/review/${first.id}/reject`, {
      method: 'POST',
      headers: { cookie: side.cookie, origin: url, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'bench' }),
    });
    if (res.status !== 200)
      throw new Error(`rejecting review item ${first.id} answered ${res.status}: ${await res.text()}`);
    const upsertMs = ((await (await gone).jsonValue()) as number) - t0;
    await page.waitForTimeout(300);
    const upsertTasks = await takeTasks();
    return { firstRowMs, renderTasks, upsertMs, upsertTasks, domRows };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const max = (xs: number[]) => (xs.length ? Math.max(...xs) : 0);
const fmt = (n: number) => n.toFixed(0);

async function side(count: number): Promise<Side> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-inbox-'));
  const seeded = await seed(dataDir, count, RUNS);
  const server = await startServer({ DATA_DIR: dataDir, DEMO: '0' });
  return { ...seeded, count, server, dataDir };
}

async function main(): Promise<void> {
  const seedStart = performance.now();
  const sides: Side[] = [];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    sides.push(await side(BASELINE), await side(BIG));
    const [small, big] = sides as [Side, Side];
    console.log(`seeded and started both servers in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    // 1. The server's own list, the two servers in turn so a busy machine weighs on both alike.
    const reads: [number[], number[]] = [[], []];
    const bytes: [number, number] = [0, 0];
    for (let i = 0; i < 3 + READS; i++)
      for (const [k, s] of [small, big].entries()) {
        const r = await timedList(s, s.count);
        if (i >= 3) reads[k]!.push(r.ms);
        bytes[k] = r.bytes;
      }

    // 2 and 3, interleaved likewise; each run removes one item, so later lists hold one fewer.
    const smallRuns: Run[] = [];
    const bigRuns: Run[] = [];
    for (let r = 0; r < RUNS; r++) {
      smallRuns.push(await measure(browser, small, r));
      bigRuns.push(await measure(browser, big, r));
    }
    const api = reads.map(median) as [number, number];
    const first = (runs: Run[]) => median(runs.map((x) => x.firstRowMs));
    const live = (runs: Run[]) => median(runs.map((x) => x.upsertMs));
    const tasks = (runs: Run[], k: 'renderTasks' | 'upsertTasks') => runs.flatMap((x) => x[k]);
    const taskCell = (runs: Run[], k: 'renderTasks' | 'upsertTasks') =>
      `${tasks(runs, k).length} (max ${fmt(max(tasks(runs, k)))} ms)`;
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
    const lines = [
      `## Inbox (npm run bench:inbox)`,
      ``,
      `| measure | ${BASELINE} items | ${BIG.toLocaleString('en')} items |`,
      `| --- | --- | --- |`,
      `| server: GET /api/inbox, median of ${READS} | ${api[0].toFixed(1)} ms (${kb(bytes[0])}) | ${api[1].toFixed(1)} ms (${kb(bytes[1])}, ${(api[1] / api[0]).toFixed(1)}×) |`,
      `| navigation → first item row, median of ${RUNS} cold loads | ${fmt(first(smallRuns))} ms | ${fmt(first(bigRuns))} ms (${(first(bigRuns) / first(smallRuns)).toFixed(2)}×) |`,
      `| long tasks during first render (all runs) | ${taskCell(smallRuns, 'renderTasks')} | ${taskCell(bigRuns, 'renderTasks')} |`,
      `| first item rejected over the API → its row gone from screen | ${fmt(live(smallRuns))} ms | ${fmt(live(bigRuns))} ms |`,
      `| long tasks around that change (all runs) | ${taskCell(smallRuns, 'upsertTasks')} | ${taskCell(bigRuns, 'upsertTasks')} |`,
      `| item rows in the DOM (virtualised) | ${smallRuns[0]!.domRows} | ${bigRuns[0]!.domRows} |`,
    ];
    console.log(lines.join('\n'));
    const items = (n: number) => `${n.toLocaleString('en-US')} items`;
    printBenchResult('inbox', [
      {
        metric: `server GET /api/inbox, ${items(BIG)}`,
        value: api[1],
        unit: 'ms',
        baseline: items(BASELINE),
        baselineValue: api[0],
        note: `${kb(bytes[1])} answered`,
      },
      {
        metric: `navigation → first item row, ${items(BIG)}`,
        value: first(bigRuns),
        unit: 'ms',
        baseline: items(BASELINE),
        baselineValue: first(smallRuns),
        note: `long tasks: ${taskCell(bigRuns, 'renderTasks')} rendering, ${taskCell(bigRuns, 'upsertTasks')} on a live change (aim 0)`,
      },
      {
        metric: `item rejected → its row gone, ${items(BIG)}`,
        value: live(bigRuns),
        unit: 'ms',
        baseline: items(BASELINE),
        baselineValue: live(smallRuns),
      },
    ]);
  } finally {
    await browser.close();
    for (const s of sides) {
      await s.server.stop();
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  }
}

await main().catch((error: unknown) => failBench('inbox', error));
