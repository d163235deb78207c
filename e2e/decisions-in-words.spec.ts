// Every decision shows what it is about, in words, on a fresh server of its own
// with the demo off: the first run's empty inbox offers next steps (decisions-web.md §40); an
// operator who gave no name reads as "Operator …K7Qm2x" in the header, the whole did one click
// away (§46); turning review mode off with candidates waiting says how many wait and settles
// them, or keeps review mode on (§39).
import { expect, test, type BrowserContext, type Page } from './support/test';
import { connectTestAgent, type TestAgent } from './support/agents';
import { enrollNewKey } from './support/operators';
import { snap } from './support/screenshots';
import { startServer, type RunningServer } from './support/server';

test.describe.configure({ mode: 'serial' });

const ROOM = 'words';
const AGENT = 'agent.words';
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let agent: TestAgent | undefined;

test.beforeAll(async ({ browser }) => {
  server = await startServer({ DEMO: '0' }, { enrollLinkWaitMs: 10_000 });
  if (!server.enrollUrl || !server.mqttUrl) throw new Error(`No enrollment link or MQTT address:\n${server.log()}`);
  context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  await enrollNewKey(page, server.enrollUrl);
});

test.afterAll(async () => {
  await agent?.close();
  await context?.close();
  await server?.stop();
});

/** A snap at 1440 and at 390 px. */
async function snapBoth(name: string, options?: { fullPage?: boolean }): Promise<void> {
  await snap(page, `${name}-1440`, options);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, `${name}-390`, options);
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('the first run’s empty inbox offers next steps: the guided demo, an agent, a colleague', async () => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Nothing needs you' })).toBeVisible({ timeout: 20_000 });
  const steps = page.getByRole('list', { name: 'Next steps' }).getByTestId('next-step');
  await expect(steps).toHaveCount(3);
  for (const [title, href] of [
    ['Run the guided demo', '/demo'],
    ['Connect an agent', '/fleet'],
    ['Invite a colleague', '/settings/operators'],
  ] as const)
    await expect(steps.filter({ hasText: title })).toHaveAttribute('href', href);
  await snapBoth('words-empty-inbox');
  await steps.filter({ hasText: 'Invite a colleague' }).click();
  await expect(page).toHaveURL(/\/settings\/operators$/);
});

test('an operator without a name reads as “Operator …” and the did’s tail; the did is one click away', async () => {
  const did = await page.evaluate(
    async () => ((await (await fetch('/api/auth/session')).json()) as { did: string }).did,
  );
  await page.goto('/');
  const account = page.getByRole('button', { name: /^Account: / });
  await expect(account).toHaveAccessibleName(`Account: Operator …${did.slice(-6)}, facilitator`);
  await expect(page.getByTestId('account-unnamed')).toHaveText(`Operator …${did.slice(-6)}`);
  expect(await page.locator('header').innerText()).not.toMatch(/did:key:/);
  await expect(account).toHaveAttribute('title', did);
  await account.click();
  await expect(page.getByText(did, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy DID' })).toBeVisible();
  await snapBoth('words-account-unnamed', { fullPage: false });
  await page.keyboard.press('Escape');
});

test('turning review mode off with candidates waiting says how many, and settles them or keeps review on', async () => {
  const created = await page.evaluate(async (id) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: 'Words', moderation: 'auto' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
  agent = await connectTestAgent(AGENT, { mqttUrl: server.mqttUrl!, dataDir: server.dataDir });
  agent.heartbeat(ROOM, 'Words');
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Live', { timeout: 20_000 });
  const box = page.getByRole('checkbox', { name: /Review mode/ });
  await box.click();
  await page.getByRole('button', { name: 'Turn on review mode' }).click();
  await expect(box).toBeChecked();

  await page.getByLabel('Agent', { exact: true }).fill(AGENT);
  await page.getByLabel('Goal').fill('Summarise the week');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  const task = await agent.waitFor((topic, e) => topic === `rooms/${ROOM}/agents/${AGENT}/inbox` && e.type === 'task');
  const taskId = (task.payload as { task_id: string }).task_id;
  for (const text of ['Monday: two releases', 'Tuesday: one incident'])
    await agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
      task_id: taskId,
      message_type: 'progress',
      content: { text },
    });
  const queue = page.getByRole('list', { name: 'Candidates waiting for review' }).getByTestId('review-item');
  await expect(queue).toHaveCount(2, { timeout: 20_000 });

  // Off, with two waiting: the dialog counts them and offers every way out.
  await box.click();
  const dialog = page.getByRole('dialog', { name: '2 candidates wait for review' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('review-off-waiting')).toContainText('Decide what happens to the 2 waiting first');
  for (const name of ['Approve all 2 and turn off', 'Release all 2 undecided and turn off', 'Keep review mode on'])
    await expect(dialog.getByRole('button', { name })).toBeEnabled();
  // Rejecting needs a reason first.
  await expect(dialog.getByRole('button', { name: 'Reject all 2 and turn off' })).toBeDisabled();
  await dialog.getByLabel('Or reject with a reason').fill('Off topic for this room');
  await expect(dialog.getByRole('button', { name: 'Reject all 2 and turn off' })).toBeEnabled();
  await snapBoth('words-review-off-waiting', { fullPage: false });

  // "Keep review mode on" changes nothing.
  await dialog.getByRole('button', { name: 'Keep review mode on' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(box).toBeChecked();
  await expect(queue).toHaveCount(2);

  // Releasing hands both back undecided and turns review mode off.
  await box.click();
  await page
    .getByRole('dialog', { name: '2 candidates wait for review' })
    .getByRole('button', { name: 'Release all 2 undecided and turn off' })
    .click();
  await expect(box).not.toBeChecked({ timeout: 20_000 });
  await expect(page.getByTestId('review-item')).toHaveCount(0);
});
