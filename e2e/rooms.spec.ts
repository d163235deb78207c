// Agent Ops Rooms end to end: a facilitator creates a room, a real agent connects over MQTT TCP
// and heartbeats, a task with its mic grant goes out from the console, the agent's ack reaches
// the public timeline, a candidate without a grant is rejected in words, and agent-written
// markup stays text.
import { expect, test, type BrowserContext, type Page, expectConsoleErrors } from './support/test';
import { taskSent } from './support/rooms';
import { connectTestAgent, type TestAgent } from './support/agents';
import { enrollNewKey, inviteOperator } from './support/operators';
import { snap } from './support/screenshots';

test.describe.configure({ mode: 'serial' });

const ROOM = 'ops';
const AGENT = 'agent.e2e';
let context: BrowserContext;
let page: Page;
let agent: TestAgent | undefined;
const dialogs: string[] = [];

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await enrollNewKey(page, await inviteOperator('facilitator'));
});

test.afterAll(async () => {
  await agent?.close();
  await context.close();
});

test('a facilitator creates room "ops" from the rooms list', async () => {
  expectConsoleErrors(/status of 409 .*\/api\/rooms\)$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rooms' }).click();
  await expect(page.getByRole('heading', { name: 'Rooms', exact: true })).toBeVisible();
  // e2e/rooms-facilitate.spec.ts runs first on the same server and has its own room.
  await expect(page.getByRole('link', { name: /Operations/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Create room' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create room' });
  await dialog.getByLabel('Room id').fill('bad id');
  await dialog.getByLabel('Name').fill('Operations');
  await dialog.getByRole('button', { name: 'Create room' }).click();
  await expect(dialog.getByText('Use 1–128 characters without spaces')).toBeVisible();
  await dialog.getByLabel('Room id').fill(ROOM);
  await dialog.getByRole('button', { name: 'Create room' }).click();
  await expect(page).toHaveURL(/\/rooms\/ops$/);
  await expect(page.getByRole('heading', { name: 'Operations' })).toBeVisible();
  await expect(page.getByTestId('connection-status')).toHaveText('Live');

  // A second room with the same id is refused, in words.
  await page.goto('/rooms');
  await expect(page.getByRole('link', { name: /Operations/ })).toBeVisible();
  await page.getByRole('button', { name: 'Create room' }).click();
  const again = page.getByRole('dialog', { name: 'Create room' });
  await again.getByLabel('Room id').fill(ROOM);
  await again.getByLabel('Name').fill('Twice');
  await again.getByRole('button', { name: 'Create room' }).click();
  await expect(again.getByRole('alert')).toContainText('A room "ops" already exists.');
  await again.getByRole('button', { name: 'Cancel' }).click();
});

test('a real agent heartbeats over MQTT and shows online', async () => {
  agent = await connectTestAgent(AGENT);
  agent.heartbeat(ROOM, 'Finds things for the e2e journey');
  await page.getByRole('link', { name: /Operations/ }).click();
  const card = page.getByTestId(`agent-${AGENT}`);
  await expect(card).toContainText('online', { timeout: 15_000 });
  await expect(card).toContainText(/last seen (just now|\d+ seconds? ago)/);
  await expect(card).toContainText('Finds things for the e2e journey');
});

test('a task with a mic grant reaches the agent, and its ack reaches the public timeline', async () => {
  const a = agent!;
  await page.getByLabel('Agent', { exact: true }).fill(AGENT);
  await page.getByLabel('Goal').fill('Summarise the incident');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  const sentId = await taskSent(page, AGENT, 'Summarise the incident');

  const task = await a.waitFor((topic, e) => topic === `rooms/${ROOM}/agents/${AGENT}/inbox` && e.type === 'task');
  const taskId = (task.payload as { task_id: string }).task_id;
  expect(taskId).toBe(sentId);
  expect(task.from).toMatchObject({ kind: 'user' });
  await a.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/control` &&
      e.type === 'mic_grant' &&
      (e.payload as { task_id: string }).task_id === taskId,
  );
  // The task by its goal (decisions-web.md §33); its id is data on the row.
  await expect(page.getByTestId('control-event').first()).toContainText(
    `Mic granted to ${AGENT} for “Summarise the incident”`,
  );
  await expect(page.getByTestId('control-event').first()).toHaveAttribute('data-task-id', taskId);
  await expect(page.getByTestId('active-grant')).toHaveAttribute('data-task-id', taskId);
  await expect(page.getByTestId('active-grant')).toContainText('“Summarise the incident”');
  // The agents panel names the agent's current task and how much of its mic is used.
  const current = page.getByTestId(`agent-${AGENT}`).getByTestId('agent-current-task');
  await expect(current).toContainText('On “Summarise the incident” with the mic');
  await expect(current.getByTestId('grant-budget')).toHaveText('0/5 used');

  await a.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'ack',
    content: { text: 'On it: reading the incident log.' },
  });
  const message = page.getByTestId('public-message').filter({ hasText: 'On it: reading the incident log.' });
  await expect(message).toBeVisible();
  await expect(message).toContainText('ack');
  await expect(page.getByTestId('timeline-announcer')).toContainText('On it: reading the incident log.');

  // Agent-written markup is text: shown literally, never run.
  await a.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'progress',
    content: { text: '<img src=x onerror=alert(1)>' },
  });
  const markup = page.getByTestId('public-message').filter({ hasText: '<img src=x onerror=alert(1)>' });
  await expect(markup).toBeVisible();
  await expect(markup.locator('img')).toHaveCount(0);

  // The raw inspector shows the exact envelope and its topic.
  await message.getByRole('button', { name: /^Inspect/ }).click();
  const inspector = page.getByRole('dialog', { name: 'Raw envelope' });
  await expect(inspector).toContainText(`rooms/${ROOM}/public`);
  await expect(inspector.getByTestId('inspector-json')).toContainText('"message_type": "ack"');
  await expect(inspector.getByRole('button', { name: 'Copy JSON' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(inspector).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test('a candidate without a grant is rejected, with the reason in words', async () => {
  await agent!.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: 'task_nogrant',
    message_type: 'finding',
    content: { bullets: ['uninvited'] },
  });
  await expect(page.locator('[data-testid="control-event"][data-task-id="task_nogrant"]')).toContainText(
    'had no mic for this task',
  );
  await expect(page.getByTestId('public-message').filter({ hasText: 'uninvited' })).toHaveCount(0);
  expect(dialogs).toEqual([]);
  // The say box speaks as the facilitator, on the public topic.
  await page.getByLabel('Say in the room').fill('Thanks, carry on.');
  await page.getByRole('button', { name: 'Say', exact: true }).click();
  await expect(page.getByTestId('public-message').filter({ hasText: 'Thanks, carry on.' })).toContainText('say');
  await snap(page, 'rooms-room');
  await page.goto('/rooms');
  await expect(page.getByRole('link', { name: /Operations/ })).toContainText('1 of 1 agents present');
  await expect(page.getByRole('button', { name: /^Account: / })).toBeVisible();
  await snap(page, 'rooms-list');
});

test('an observer sees the room with every control disabled, and a note saying why', async ({ browser }) => {
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  try {
    await enrollNewKey(other, await inviteOperator('observer'), 'Observer');
    await other.goto(`/rooms/${ROOM}`);
    await expect(other.getByText('You are observing')).toBeVisible();
    await expect(
      other.getByTestId('public-message').filter({ hasText: 'On it: reading the incident log.' }),
    ).toBeVisible();
    await expect(other.getByRole('button', { name: 'Assign with mic' })).toBeDisabled();
    await expect(other.getByLabel('Say in the room')).toBeDisabled();
    await expect(other.getByRole('checkbox', { name: /Review mode/ })).toBeDisabled();
    await expect(other.getByRole('button', { name: /^Revoke mic of/ })).toBeDisabled();
  } finally {
    await fresh.close();
  }
});
