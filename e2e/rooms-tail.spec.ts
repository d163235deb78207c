// The live tail, end to end against the real server: history seeded by real agents over MQTT,
// pause without loss ("N new", jump to live), filters in the URL that also hold for later
// arrivals, older history paged in on scroll, a permalink, and a reload that shows exactly what
// the server stored (no gap, no duplicate).
import { expect, test, type BrowserContext, type Page } from './support/test';
import { connectTestAgent, type TestAgent } from './support/agents';
import { enrollNewKey, inviteOperator } from './support/operators';
import { snap } from './support/screenshots';
import { shownMessageIds, storedMessageIds } from './support/timeline';
import { perWorker } from './support/run-names';

test.describe.configure({ mode: 'serial' });

const ROOM = perWorker('tail');
const A = 'agent.tail.a';
const B = 'agent.tail.b';
const SEEDED = 150;
let context: BrowserContext;
let page: Page;
const agents: Record<string, TestAgent> = {};
const tasks: Record<string, string> = {};

async function say(agentId: string, text: string): Promise<void> {
  await agents[agentId]!.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: tasks[agentId],
    message_type: 'progress',
    content: { text },
  });
}

async function grantMic(agentId: string): Promise<void> {
  await page.getByLabel('Agent', { exact: true }).fill(agentId);
  await page.getByLabel('Goal').fill(`Talk a lot (${agentId})`);
  await page.getByLabel('Budget (messages)').fill('1000');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  const task = await agents[agentId]!.waitFor(
    (topic, e) => topic === `rooms/${ROOM}/agents/${agentId}/inbox` && e.type === 'task',
  );
  tasks[agentId] = (task.payload as { task_id: string }).task_id;
  await agents[agentId]!.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/control` &&
      e.type === 'mic_grant' &&
      (e.payload as { task_id: string }).task_id === tasks[agentId],
  );
}

async function storedCursor(text: string): Promise<number> {
  return page.evaluate(
    async ({ room, text }) => {
      const res = await fetch(`/api/rooms/${room}/messages?topic=public&limit=500`);
      const body = (await res.json()) as { messages: { cursor: number; raw: string }[] };
      return body.messages.find((m) => m.raw.includes(`"${text}"`))!.cursor;
    },
    { room: ROOM, text },
  );
}

/** Scrolls the timeline to the top until the room's beginning is loaded. */
async function loadAllOlder(): Promise<void> {
  const scroller = page.getByTestId('timeline-scroller');
  await expect(async () => {
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(page.getByTestId('older-state')).toHaveText('The beginning of this room', { timeout: 500 });
  }).toPass({ timeout: 20_000 });
}

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  await enrollNewKey(page, await inviteOperator('facilitator'));
  const created = await page.evaluate(async (room) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: room, name: 'Tail room' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
  agents[A] = await connectTestAgent(A);
  agents[B] = await connectTestAgent(B);
});

test.afterAll(async () => {
  await Promise.all(Object.values(agents).map((a) => a.close()));
  await context.close();
});

test('history seeded by real agents opens at the newest message', async () => {
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  await grantMic(A);
  await grantMic(B);
  for (let i = 0; i < SEEDED; i++) await say(i % 10 === 0 ? B : A, `seed ${i}`);
  await expect(page.getByTestId('public-message').filter({ hasText: `seed ${SEEDED - 1}` })).toBeVisible();
  await expect(page.getByTestId('tail-state')).toHaveText('Following live');
});

test('pause buffers what arrives, counts it, and jump to live shows it all', async () => {
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('tail-state')).toHaveText('Paused');
  for (let i = 0; i < 7; i++) await say(A, `while paused ${i}`);
  await expect(page.getByTestId('new-count')).toHaveText('7 new');
  await expect(page.getByTestId('public-message').filter({ hasText: 'while paused' })).toHaveCount(0);
  await page.getByTestId('jump-to-live').click();
  await expect(page.getByTestId('tail-state')).toHaveText('Following live');
  await expect(page.getByTestId('public-message').filter({ hasText: 'while paused 6' })).toBeVisible();
  await expect(page.getByTestId('public-message').filter({ hasText: /while paused \d/ })).toHaveCount(7);

  // Space pauses and resumes when the timeline has focus.
  await page.getByTestId('timeline-scroller').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('tail-state')).toHaveText('Paused');
  await say(B, 'paused by keyboard');
  await expect(page.getByTestId('new-count')).toHaveText('1 new');
  await snap(page, 'rooms-tail-paused');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('public-message').filter({ hasText: 'paused by keyboard' })).toBeVisible();
});

test('a filter by agent hides the others, including messages that arrive later, and lives in the URL', async () => {
  await page.getByLabel('Filter by agent').fill(B);
  await expect(page).toHaveURL(new RegExp(`agent=${B.replace(/\./g, '\\.')}`));
  const rows = page.getByTestId('public-message');
  await expect(rows.first()).toContainText(B);
  for (const sender of await rows.locator('span[title]').allTextContents()) expect(sender).toBe(B);
  await say(A, 'later from a');
  await say(B, 'later from b');
  await expect(rows.filter({ hasText: 'later from b' })).toBeVisible();
  await expect(rows.filter({ hasText: 'later from a' })).toHaveCount(0);
  await snap(page, 'rooms-tail-filtered');
  // The filtered view is linkable: a reload keeps it.
  await page.reload();
  await expect(page.getByLabel('Filter by agent')).toHaveValue(B);
  await expect(rows.filter({ hasText: 'later from b' })).toBeVisible();
  await expect(rows.filter({ hasText: 'later from a' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows.filter({ hasText: 'later from a' })).toBeVisible();
});

test('scrolling up loads older history', async () => {
  // A fresh open: the filter above shortens the list, which can page in every older message at
  // once; this test starts from what a reader sees on arrival, the newest page only.
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('public-message').filter({ hasText: 'later from a' })).toBeVisible();
  await expect(page.getByTestId('older-state')).toHaveText('Load older messages');
  await expect(page.getByTestId('public-message').filter({ hasText: 'seed 0' })).toHaveCount(0);
  await loadAllOlder();
  await page.getByTestId('timeline-scroller').evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(page.locator('[data-testid="public-message"][data-index="0"]')).toContainText('seed 0');
});

test('a permalink opens the room on that message, highlighted, and the inspector copies it', async () => {
  const cursor = await storedCursor('seed 20');
  await page.goto(`/rooms/${ROOM}?m=${cursor}`);
  const target = page.locator('[data-testid="public-message"][aria-current="true"]');
  await expect(target).toContainText('seed 20');
  await expect(target).toBeInViewport();
  await target.getByRole('button', { name: /^Inspect/ }).click();
  const inspector = page.getByRole('dialog', { name: 'Raw envelope' });
  await expect(inspector.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await page.keyboard.press('Escape');
});

test('a reload shows exactly what the server stored: no gap, no duplicate', async () => {
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('public-message').filter({ hasText: 'later from a' })).toBeVisible();
  await loadAllOlder();
  const shown = await shownMessageIds(page);
  const stored = await storedMessageIds(page, ROOM);
  expect(new Set(shown).size).toBe(shown.length);
  expect(shown).toEqual(stored);
  expect(stored.length).toBe(SEEDED + 7 + 1 + 2);
  // The control log and the grants come back too: both grants, still live, with what they spent.
  const control = await page.evaluate(
    async (room) =>
      ((await (await fetch(`/api/rooms/${room}/messages?topic=control&limit=500`)).json()) as { messages: unknown[] })
        .messages.length,
    ROOM,
  );
  await expect(page.getByRole('heading', { name: /^Control log/ })).toHaveText(`Control log (${control})`);
  await expect(page.getByTestId('control-event').filter({ hasText: 'Mic granted' })).toHaveCount(2);
  await expect(page.getByTestId('active-grant')).toHaveCount(2);
  await expect(page.getByTestId('active-grant').filter({ hasText: A }).getByTestId('grant-budget')).toHaveText(
    `${SEEDED - SEEDED / 10 + 7 + 1}/1000 used`,
  );
});
