// Long text never breaks a layout (decisions-web.md §25), against a demo server of its own: a room
// whose id and name are at their maximum, a task goal and a `say` at the message limit, 100 KB
// an agent wrote on the timeline, in the review queue and the inbox, a 60 KB negotiation term,
// a meeting and a task titled at the line limit, an Agora request at the message limit. Each
// screen, at 1440 and 390 px, never scrolls sideways; the browser logs no error throughout.
import { outsideSeller } from './support/outside-seller';
import { expect, test, type Page } from './support/test';
import { TEXT_LIMITS } from '../shared/contract/text-limits';
import { connectTestAgent, type TestAgent } from './support/agents';
import { openDemoConsole, type DemoConsole } from './support/demo-console';
import { expectNoSideScroll } from './support/page-width';

test.describe.configure({ mode: 'serial' });

const DEMO_SEED = 7;
const AGENT = 'long.agent';
/** Room ids are at most 128 characters (shared/aor/ids.ts), names 200 (the line limit). */
const ROOM = `long-${'r'.repeat(123)}`;
const REVIEW_ROOM = `review-${'q'.repeat(121)}`;
const NAME = 'N'.repeat(TEXT_LIMITS.line);
/** Unbroken runs: the worst case for wrapping, as an id or a pasted blob would be. */
const HUNDRED_KB = 'w'.repeat(100_000);
const MESSAGE_MAX = 'g'.repeat(TEXT_LIMITS.message);
const LINE_MAX = 't'.repeat(TEXT_LIMITS.line);

let demo: DemoConsole;
let page: Page;
let agent: TestAgent | undefined;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser, { seed: DEMO_SEED, context: { viewport: { width: 1440, height: 900 } } });
  page = demo.page;
  for (const [id, moderation] of [
    [ROOM, 'auto'],
    [REVIEW_ROOM, 'review'],
  ] as const) {
    const status = await page.evaluate(
      async (body) =>
        (
          await fetch('/api/rooms', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).status,
      { id, name: NAME, moderation },
    );
    expect(status).toBe(201);
  }
  agent = await connectTestAgent(AGENT, { mqttUrl: demo.server.mqttUrl!, dataDir: demo.server.dataDir });
  agent.heartbeat(ROOM, 'd'.repeat(3_000));
  agent.heartbeat(REVIEW_ROOM, 'd'.repeat(3_000));
});

test.afterAll(async () => {
  await agent?.close();
  await demo?.close();
});

test.afterEach(() => {});

/** Assigns a task with the goal at the message limit from the room page; resolves with its id. */
async function assignLongGoal(roomId: string): Promise<string> {
  await page.goto(`/rooms/${roomId}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  await expect(page.getByTestId(`agent-${AGENT}`)).toContainText('online', { timeout: 15_000 });
  await page.getByLabel('Agent', { exact: true }).fill(AGENT);
  await page.getByLabel('Goal').fill(MESSAGE_MAX);
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  await expect(page.getByText(/^Task “.+” sent to long\.agent, with its mic\.$/)).toBeVisible();
  const task = await agent!.waitFor(
    (topic, e) => topic === `rooms/${roomId}/agents/${AGENT}/inbox` && e.type === 'task',
  );
  return (task.payload as { task_id: string }).task_id;
}

test('a room at its longest: header, agents, timeline with 100 KB from an agent, a say at the limit, audit, list', async () => {
  const taskId = await assignLongGoal(ROOM);
  await agent!.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'result',
    content: { text: HUNDRED_KB },
  });
  const long = page.getByTestId('public-message').filter({ hasText: 'wwwwwwwwww' });
  await expect(long).toHaveCount(1);
  // Collapsed: the row holds the start and a toggle, not 100 KB.
  await expect(long.getByRole('button', { name: 'Show all (100,000 characters)' })).toBeVisible();

  const sayForm = page.locator('form').filter({ has: page.getByLabel('Say in the room') });
  await sayForm.getByLabel('Say in the room').fill(MESSAGE_MAX);
  await expect(sayForm.getByTestId('char-counter')).toHaveText('4,000 / 4,000');
  await sayForm.getByRole('button', { name: 'Say' }).click();
  // The say; the agent's result names its task by that goal too, so it is told apart by its text.
  await expect(
    page.getByTestId('public-message').filter({ hasText: 'gggggggggg' }).filter({ hasNotText: 'wwwwwwwwww' }),
  ).toHaveCount(1);

  await expectNoSideScroll(page, 'room', () => expect(long).toBeVisible());
  await long.getByRole('button', { name: /^Show all/ }).click();
  await expect(long.getByRole('button', { name: 'Show less' })).toBeVisible();
  await expectNoSideScroll(page, 'room-expanded', () => expect(long).toBeVisible());

  await page.goto(`/rooms/${ROOM}/audit`);
  await expect(page.getByTestId('audit-entry').first()).toBeVisible();
  await expectNoSideScroll(page, 'audit', () => expect(page.getByTestId('audit-what').first()).toBeVisible());

  await page.goto('/rooms');
  await expectNoSideScroll(page, 'rooms', () =>
    expect(page.getByRole('link', { name: new RegExp(NAME) }).first()).toBeVisible(),
  );
});

test('100 KB waiting for review: the room’s queue and the inbox', async () => {
  const taskId = await assignLongGoal(REVIEW_ROOM);
  await agent!.send(`rooms/${REVIEW_ROOM}/public_candidates`, 'result', REVIEW_ROOM, {
    task_id: taskId,
    message_type: 'result',
    content: { text: HUNDRED_KB },
  });
  const item = page.getByTestId('review-item');
  await expect(item).toHaveCount(1, { timeout: 15_000 });
  await expectNoSideScroll(page, 'review-queue', () => expect(item).toBeVisible());

  await page.goto('/');
  const row = page.getByTestId('inbox-item').filter({ hasText: 'wwwwwwwwww' });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  await expectNoSideScroll(page, 'inbox', () => expect(row).toBeVisible());
});

test('a task titled at the line limit on the board', async () => {
  await page.goto('/tasks');
  const form = page.getByRole('form', { name: 'Assign a task' });
  await expect(form.getByLabel('Assign to').locator('option')).toHaveCount(3, { timeout: 20_000 });
  await form.getByLabel('Task title').fill(LINE_MAX);
  await form.getByRole('button', { name: 'Sign and assign' }).click();
  const card = page.getByTestId('task-card').filter({ hasText: 'tttttttttt' });
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  await expectNoSideScroll(page, 'tasks', () => expect(card).toBeVisible());
});

test('a meeting titled at the line limit: the list and its thread', async () => {
  await page.goto('/scheduling');
  const form = page.getByRole('form', { name: 'Propose a meeting' });
  // The participants come with the directory; the form is filled once they are listed.
  await expect(form.getByRole('combobox', { name: /attendance$/ })).toHaveCount(3, { timeout: 20_000 });
  await form.getByLabel('Title').fill(LINE_MAX);
  await expect(form.getByTestId('char-counter')).toHaveText('200 / 200');
  await form.getByRole('button', { name: 'Sign and propose' }).click();
  await expect(page).toHaveURL(/\/scheduling\/urn/);
  await expectNoSideScroll(page, 'scheduling-thread', () =>
    expect(page.getByRole('heading', { name: /tttttttttt/ })).toBeVisible(),
  );
  await page.goto('/scheduling');
  await expectNoSideScroll(page, 'scheduling', () =>
    expect(page.getByTestId('scheduling-thread').filter({ hasText: 'tttttttttt' })).toBeVisible(),
  );
});

test('the directory, and an Agora request at the message limit: its thread and the list', async () => {
  await page.goto('/directory');
  await expect(page.getByTestId('agent-card').first()).toBeVisible({ timeout: 20_000 });
  await expectNoSideScroll(page, 'directory', () => expect(page.getByTestId('agent-card').first()).toBeVisible());
  await page.getByRole('button', { name: 'Send a request for translation.en_zh to Demo Translator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send a request to Demo Translator' });
  await dialog.getByLabel('text', { exact: true }).fill(MESSAGE_MAX);
  await dialog.getByLabel('Title (optional)').fill(LINE_MAX);
  await dialog.getByRole('button', { name: 'Sign and send' }).click();
  await expect(page).toHaveURL(/\/threads\/thread_[\w-]+$/);
  await expect(page.getByTestId('thread-message').first()).toBeVisible();
  await expectNoSideScroll(page, 'agora-thread', () =>
    expect(page.getByTestId('thread-message').first()).toBeVisible(),
  );
  await page.goto('/threads');
  await expectNoSideScroll(page, 'agora-threads', () => expect(page.getByTestId('thread-row').first()).toBeVisible());
});

test('a 60 KB term in a negotiation round, its diff, the list and the transparency log', async () => {
  const seller = outsideSeller(demo.server.url, DEMO_SEED);
  await page.goto('/negotiations');
  await page.getByRole('button', { name: 'New negotiation' }).click();
  await page.getByLabel('Counterparty DID').fill(seller.did);
  await page.getByLabel('Category').selectOption('pricing');
  await page.getByLabel('Service action (optional)').fill('weather.forecast.basic');
  await page.getByLabel('Price per call (EUR)').fill('0.0030');
  await page.getByText('Advanced: other terms as JSON').click();
  await page.getByLabel('Other terms as JSON').fill(JSON.stringify({ note: 'short' }));
  await page.getByRole('button', { name: 'Sign, open and offer' }).click();
  await expect(page).toHaveURL(/\/negotiations\/neg_/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  // The seller answers once the operator's round is in.
  await expect(page.getByTestId('party-actions')).toContainText('Waiting for the other party’s answer to round 1');
  await seller.propose(
    id,
    { action: 'weather.forecast.basic', price_per_call_eur: '0.0030', note: 'v'.repeat(60_000) },
    10 * 60_000,
  );
  const items = page.getByTestId('history-item');
  await expect(items).toHaveCount(3, { timeout: 10_000 });
  await expect(items.nth(2).getByTestId('term-change')).toHaveAttribute('data-kind', 'changed');
  await expectNoSideScroll(page, 'negotiation', () => expect(items.nth(2)).toBeVisible());

  await page.goto('/negotiations');
  await expectNoSideScroll(page, 'negotiations', () =>
    expect(page.getByTestId('negotiation-row').first()).toBeVisible(),
  );
  await page.goto('/transparency-log');
  await expectNoSideScroll(page, 'transparency-log', () => expect(page.getByTestId('log-entry').first()).toBeVisible());
});
