// The demo room, end to end, against a server of its own with the demo agents on (DEMO=1) at the
// fast pace (DEMO_PACE=fast): the four demo agents arrive and heartbeat; a task the operator
// assigns from the console to a demo agent goes through grant, ack, progress, finding and result
// to the grant's end, each step visible in the console; and the rogue's attempts show in the
// control log as rejects, named and with their reasons in words.
import { expect, test, type Page } from './support/test';
import { snap } from './support/screenshots';
import { taskSent } from './support/rooms';
import { openDemoConsole, type DemoConsole } from './support/demo-console';

test.describe.configure({ mode: 'serial' });

const ROOM = 'demo';
const DEMO_AGENTS = ['agent.researcher', 'agent.analyst', 'agent.scheduler', 'agent.rogue'];
let demo: DemoConsole;
let page: Page;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser);
  page = demo.page;
});

test.afterAll(async () => {
  await demo?.close();
});

/** Fills the console's task form and assigns it; resolves with the task id the console reports. */
async function assignFromConsole(agentId: string, goal: string, budget: number): Promise<string> {
  await page.getByLabel('Agent', { exact: true }).fill(agentId);
  await page.getByLabel('Goal').fill(goal);
  await page.getByLabel('Format (optional)').fill('3 bullets');
  await page.getByLabel('Deadline in minutes (optional)').fill('10');
  await page.getByLabel('Budget (messages)').fill(String(budget));
  await page.getByLabel('Grant expires in (minutes)').fill('5');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  return taskSent(page, agentId, goal);
}

/** The timeline, filtered by text to one task, public and control together. */
async function showTask(taskId: string): Promise<void> {
  await page.getByLabel('Filter by topic').selectOption('all');
  await page.getByLabel('Filter by text').fill(taskId);
  await expect(page).toHaveURL(new RegExp(`q=${taskId}`));
}

test('the demo room shows its four agents online, with what each does', async () => {
  await page.goto('/rooms');
  const demo = page.getByRole('link', { name: /Demo room/ });
  await expect(demo).toContainText('4 of 4 agents present', { timeout: 20_000 });
  await snap(page, 'rooms-demo-list');
  await demo.click();
  await expect(page).toHaveURL(new RegExp(`/rooms/${ROOM}$`));
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  for (const id of DEMO_AGENTS) await expect(page.getByTestId(`agent-${id}`)).toContainText('online');
  await expect(page.getByTestId('agent-agent.rogue')).toContainText('misbehaves on purpose');
  // The scripted facilitator keeps the room busy: its own tasks reach the public timeline.
  await expect(page.getByTestId('public-message').first()).toBeVisible({ timeout: 20_000 });
});

test('a task assigned from the console to agent.analyst goes through grant, ack, progress, finding and result to the grant’s end', async () => {
  const taskId = await assignFromConsole('agent.analyst', 'Check the quarterly numbers for outliers', 4);

  // The grant, said in words in the control log, from this operator.
  const goal = '“Check the quarterly numbers for outliers”';
  const controlEvents = page.locator(`[data-testid="control-event"][data-task-id="${taskId}"]`);
  await expect(controlEvents.filter({ hasText: 'Mic granted' })).toContainText(
    `Mic granted to agent.analyst for ${goal}: 4 messages`,
  );

  // Each step in the timeline, in order: the grant, what the agent said, and the end of the grant
  // by itself when the budget ran out (a mic_revoke from the gateway, not from anyone's click).
  await showTask(taskId);
  const rows = page.getByTestId('public-message');
  await expect
    .poll(() => rows.locator('[data-testid="message-type"], [data-testid="control-kind"]').allTextContents(), {
      timeout: 30_000,
    })
    .toEqual(['mic granted', 'ack', 'progress', 'finding', 'result', 'mic taken back']);
  for (const type of ['ack', 'progress', 'finding', 'result']) {
    const row = rows.filter({ has: page.getByTestId('message-type').getByText(type, { exact: true }) });
    await expect(row.locator('span[title]').first()).toHaveText('agent.analyst');
  }
  // Control messages say what they mean; the protocol's term is in the tooltip.
  const end = rows.filter({ has: page.getByTestId('control-kind').getByText('mic taken back', { exact: true }) });
  await expect(end.getByTestId('control-kind').locator('abbr')).toHaveAttribute('title', /^mic_revoke/);
  await expect(end).toContainText(
    `Mic revoked from agent.analyst for ${goal}: the mic grant’s message budget is used up`,
  );
  await expect(end.locator('span[title]').first()).toHaveText('gateway');

  // The control log and the grants panel agree: the grant ended itself with its budget spent.
  await expect(controlEvents.filter({ hasText: 'Mic revoked' })).toContainText(
    'the mic grant’s message budget is used up',
  );
  await expect(page.locator(`[data-testid="active-grant"][data-task-id="${taskId}"]`)).toHaveCount(0);
  await page
    .getByTestId('grant-history')
    .getByText(/Grant history/)
    .click();
  await expect(
    page
      .getByTestId('grant-history-task')
      .filter({ has: page.locator(`[data-task-id="${taskId}"]`) })
      .getByTestId('grant-history-entry'),
  ).toHaveText(/^agent\.analyst: 4\/4 used, budget used up at \w{3} \d{1,2} \w{3}( \d{4})?, \d\d:\d\d \S+$/);

  // The task itself (inbox) is in the stored history with the goal, format and deadline the form set.
  const task = await page.evaluate(
    async ({ room, id }) => {
      const res = await fetch(`/api/rooms/${room}/messages?topic=inbox&limit=500`);
      const body = (await res.json()) as { messages: { raw: string }[] };
      return body.messages
        .map((m) => JSON.parse(m.raw) as { payload: Record<string, unknown> })
        .find((e) => e.payload.task_id === id)?.payload;
    },
    { room: ROOM, id: taskId },
  );
  expect(task).toMatchObject({ goal: 'Check the quarterly numbers for outliers', format: '3 bullets' });
  expect(typeof task?.deadline).toBe('number');
  await page.getByRole('button', { name: 'Clear filters' }).click();
});

test('the rogue’s attempts show in the control log as rejects, naming it, with their reasons in words', async () => {
  const taskId = await assignFromConsole('agent.rogue', 'Post a short status update', 2);
  // Its task and the side task it invents, by the ids on the rows (the text names tasks by goal).
  const rejects = page
    .locator(`[data-testid="control-event"][data-task-id^="${taskId}"]`)
    .filter({ hasText: 'Rejected' });
  const goal = '“Post a short status update”';
  // Each trick of server/demo/rogue-agent.ts, in words; no reason code alone.
  await expect(page.locator(`[data-testid="control-event"][data-task-id="${taskId}.sidequest"]`)).toContainText(
    'Rejected agent.rogue’s message for a task: had no mic for this task',
    { timeout: 30_000 },
  );
  await expect(rejects.filter({ hasText: 'claiming to be from agent.researcher' })).toContainText(
    'the message claimed to come from another agent',
  );
  await expect(rejects.filter({ hasText: 'not allowed by the mic grant' })).toContainText(
    `Rejected agent.rogue’s message for ${goal}: this message type is not allowed by the mic grant`,
  );
  await expect(rejects.filter({ hasText: 'budget is used up' })).toContainText(
    `Rejected agent.rogue’s message for ${goal}: the mic grant’s message budget is used up`,
  );
  await expect(rejects).toHaveCount(4);
  for (const text of await rejects.allTextContents()) expect(text).toMatch(/gateway\s*Inspect$/);

  // What it was allowed went through (its two messages); the straight-to-public publish did not:
  // the broker refused it, so the public timeline for this task holds exactly the two.
  await page.getByLabel('Filter by text').fill(taskId);
  const rows = page.getByTestId('public-message');
  await expect(rows).toHaveCount(2);
  for (const text of await rows.allTextContents())
    expect(text).toMatch(/Fine, I will use my mic properly for once\.|Working on it, as permitted\./);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await snap(page, 'rooms-demo-room');

  // The raw envelope of a reject: exactly as stored, with its topic and receive time.
  await rejects.filter({ hasText: 'budget is used up' }).getByRole('button', { name: 'Inspect' }).click();
  const inspector = page.getByRole('dialog', { name: 'Raw envelope' });
  await expect(inspector).toContainText(`rooms/${ROOM}/control`);
  await expect(inspector.getByTestId('inspector-json')).toContainText('"reason": "message_limit_exceeded"');
  await snap(page, 'rooms-inspector', { fullPage: false });
  await page.keyboard.press('Escape');
  await expect(inspector).toHaveCount(0);
});
