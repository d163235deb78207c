// Facilitating comfortably, end to end against the real server and real MQTT agents: `say` with
// `@agent` completion, answering an agent's clarifying question from the console, a grant that
// ends by itself when its time runs out, new messages announced to screen readers a burst at a
// time, focus that stays put while messages arrive and comes back when a dialog closes, and
// times shown as UTC, local or relative, remembered across a reload.
import { expect, test, type BrowserContext, type Page } from './support/test';
import { mentionsAgent, withoutMention } from '../agents/aor/mentions';
import { connectTestAgent, type TestAgent } from './support/agents';
import { enrollNewKey, inviteOperator } from './support/operators';
import { snap } from './support/screenshots';
import { perWorker } from './support/run-names';

test.describe.configure({ mode: 'serial' });

const ROOM = perWorker('comfort');
const ASKER = 'agent.comfort';
const OTHER = 'agent.calm';
let context: BrowserContext;
let page: Page;
let asker: TestAgent;
let other: TestAgent;
let taskId = '';

const progress = (text: string) =>
  asker.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'progress',
    content: { text },
  });

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  await enrollNewKey(page, await inviteOperator('facilitator'));
  const created = await page.evaluate(async (id) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: 'Comfort' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
  [asker, other] = await Promise.all([connectTestAgent(ASKER), connectTestAgent(OTHER)]);
  asker.heartbeat(ROOM, 'Asks questions');
  other.heartbeat(ROOM, 'Stays calm');
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  await expect(page.getByTestId(`agent-${OTHER}`)).toContainText('online');
  await expect(page.getByTestId(`agent-${ASKER}`)).toContainText('online');

  await page.getByLabel('Agent', { exact: true }).fill(ASKER);
  await page.getByLabel('Goal').fill('Ask before you answer');
  await page.getByRole('checkbox', { name: 'clarifying_question', exact: true }).check();
  await page.getByLabel('Budget (messages)').fill('100');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  const task = await asker.waitFor((topic, e) => topic === `rooms/${ROOM}/agents/${ASKER}/inbox` && e.type === 'task');
  taskId = (task.payload as { task_id: string }).task_id;
  await expect(page.locator(`[data-testid="active-grant"][data-task-id="${taskId}"]`)).toBeVisible();
});

test.afterAll(async () => {
  await asker?.close();
  await other?.close();
  await context?.close();
});

test('say offers @agent completion from the agents present, by keyboard, and the mention reaches the agent', async () => {
  const box = page.getByRole('combobox', { name: 'Say in the room' });
  await box.click();
  await box.pressSequentially('Hello @agent.c');
  const list = page.getByRole('listbox', { name: 'Agents to mention' });
  await expect(list.getByRole('option')).toHaveText([`@${OTHER}`, `@${ASKER}`]);
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await expect(list.getByRole('option', { name: `@${OTHER}` })).toHaveAttribute('aria-selected', 'true');
  await snap(page, 'rooms-say-mention');
  await expect(box).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(list.getByRole('option', { name: `@${ASKER}` })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue(`Hello @${ASKER} `);
  await expect(list).toBeHidden();
  await expect(box).toBeFocused();

  // Escape closes the list without choosing; the text stays as typed.
  await box.pressSequentially('and @agent.ca');
  await expect(list.getByRole('option')).toHaveText([`@${OTHER}`]);
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(box).toHaveValue(`Hello @${ASKER} and @agent.ca`);
  // A click chooses too.
  await box.pressSequentially('l');
  await list.getByRole('option', { name: `@${OTHER}` }).click();
  await expect(box).toHaveValue(`Hello @${ASKER} and @${OTHER} `);
  await box.pressSequentially('please sync.');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('');

  const said = await asker.waitFor((topic, e) => topic === `rooms/${ROOM}/public` && e.type === 'say');
  const text = (said.payload as { text: string }).text;
  expect(text).toBe(`Hello @${ASKER} and @${OTHER} please sync.`);
  expect(mentionsAgent(text, ASKER) && mentionsAgent(text, OTHER)).toBe(true);
  await expect(page.getByTestId('public-message').filter({ hasText: 'please sync.' })).toContainText('say');
});

test('an agent’s clarifying question is answered from the console with a say that mentions it', async () => {
  await asker.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'clarifying_question',
    content: { question: 'EMQX or Mosquitto?' },
  });
  const question = page.getByTestId('public-message').filter({ hasText: 'EMQX or Mosquitto?' });
  await expect(question).toContainText('clarifying_question');
  await question.getByRole('button', { name: `Reply to ${ASKER}’s question` }).click();
  const box = page.getByRole('combobox', { name: 'Say in the room' });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue(`@${ASKER} `);
  await page.keyboard.type('Mosquitto, please.');
  await page.keyboard.press('Enter');

  // What an agent's ask() resolves with: the next say on public that mentions it (agents/aor).
  const answer = await asker.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/public` &&
      e.type === 'say' &&
      mentionsAgent((e.payload as { text: string }).text, ASKER) &&
      (e.payload as { text: string }).text.includes('Mosquitto'),
  );
  expect(withoutMention((answer.payload as { text: string }).text, ASKER)).toBe('Mosquitto, please.');
  await expect(page.getByTestId('public-message').filter({ hasText: `@${ASKER} Mosquitto, please.` })).toContainText(
    'say',
  );
});

test('a grant counts down and ends by itself when its time runs out', async () => {
  await page.getByLabel('Agent', { exact: true }).fill(OTHER);
  await page.getByLabel('Goal').fill('A short one');
  await page.getByLabel('Budget (messages)').fill('3');
  // A tenth of a minute: six seconds.
  await page.getByLabel('Grant expires in (minutes)').fill('0.1');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  const task = await other.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/agents/${OTHER}/inbox` &&
      e.type === 'task' &&
      (e.payload as { goal: string }).goal === 'A short one',
  );
  const shortTask = (task.payload as { task_id: string }).task_id;
  const grant = page.locator(`[data-testid="active-grant"][data-task-id="${shortTask}"]`);
  await expect(grant.getByTestId('grant-meter')).toContainText('0/3 used');
  await expect(grant.getByTestId('grant-countdown')).toContainText(/0:0\d left/);
  // Nobody clicks anything: the console shows it ended, the gateway ends it with a revoke of its own.
  const revoke = page.getByTestId('control-event').filter({ hasText: `Mic revoked from ${OTHER}` });
  await expect(revoke).toContainText('the mic for this task had expired', { timeout: 20_000 });
  await expect(revoke).toContainText('gateway');
  await expect(grant).toHaveCount(0);
  await page
    .getByTestId('grant-history')
    .getByText(/Grant history/)
    .click();
  await expect(
    page
      .getByTestId('grant-history-task')
      .filter({ has: page.locator(`[data-task-id="${shortTask}"]`) })
      .getByTestId('grant-history-entry'),
  ).toContainText(`${OTHER}: 0/3 used, time ran out`);
  // Its next candidate is refused for that reason, in words.
  const late = await other.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: shortTask,
    message_type: 'ack',
    content: { text: 'late' },
  });
  await expect(page.locator(`[data-testid="control-event"][data-about-message-id="${late}"]`)).toContainText(
    'the mic for this task had expired',
  );
});

test('new messages are announced politely, a burst in one sentence rather than one per message', async () => {
  const announcer = page.getByTestId('timeline-announcer');
  await expect(announcer).toHaveAttribute('aria-live', 'polite');
  // Everything the live region ever says, in order.
  await announcer.evaluate((el) => {
    const said: string[] = [];
    (window as unknown as { __said: string[] }).__said = said;
    new MutationObserver(() => said.push(el.textContent ?? '')).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  const BURST = 10;
  await Promise.all(Array.from({ length: BURST }, (_, i) => progress(`burst ${i}`)));
  await expect(page.getByTestId('public-message').filter({ hasText: `burst ${BURST - 1}` })).toBeVisible();
  // However the burst was split, every message is counted once, and in fewer sentences than messages.
  await expect
    .poll(async () => {
      const said = await page.evaluate(() => (window as unknown as { __said: string[] }).__said.filter(Boolean));
      return said.reduce(
        (n, s) =>
          n +
          Number(
            /^(\d+) new messages from agent\.comfort$/.exec(s)?.[1] ??
              (s.startsWith(`${ASKER} progress: burst`) ? 1 : 0),
          ),
        0,
      );
    })
    .toBe(BURST);
  const said = await page.evaluate(() => (window as unknown as { __said: string[] }).__said.filter(Boolean));
  expect(said.length).toBeLessThan(BURST);
  expect(said.some((s) => /^\d+ new messages from agent\.comfort$/.test(s))).toBe(true);
  // A single message is read out whole.
  await progress('one more, alone');
  await expect(announcer).toHaveText(`${ASKER} progress: one more, alone`);
});

test('focus stays put while messages arrive, and returns to its button when a dialog closes', async () => {
  // Typing in the say box while the room is busy: focus and text stay.
  const box = page.getByRole('combobox', { name: 'Say in the room' });
  await box.click();
  await box.pressSequentially('half a thought');
  for (let i = 0; i < 3; i++) await progress(`while typing ${i}`);
  await expect(page.getByTestId('public-message').filter({ hasText: 'while typing 2' })).toBeVisible();
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('half a thought');
  await box.fill('');

  // A row's Inspect button keeps focus as new rows are added below it.
  const row = page.getByTestId('public-message').filter({ hasText: 'while typing 2' });
  const inspect = row.getByRole('button', { name: /^Inspect/ });
  await inspect.focus();
  for (let i = 0; i < 3; i++) await progress(`after focus ${i}`);
  await expect(page.getByTestId('public-message').filter({ hasText: 'after focus 2' })).toBeVisible();
  await expect(inspect).toBeFocused();

  // Radix returns focus to the control that opened the dialog.
  await page.keyboard.press('Enter');
  const inspector = page.getByRole('dialog', { name: 'Raw envelope' });
  await expect(inspector).toContainText('while typing 2');
  await page.keyboard.press('Escape');
  await expect(inspector).toHaveCount(0);
  await expect(inspect).toBeFocused();

  const logInspect = page.getByTestId('control-event').first().getByRole('button', { name: 'Inspect' });
  await logInspect.click();
  await expect(inspector).toBeVisible();
  await inspector.getByRole('button', { name: 'Close' }).click();
  await expect(logInspect).toBeFocused();
});

test('times show as UTC, local or relative, and the choice is remembered across a reload', async () => {
  const times = page.getByRole('group', { name: 'Show times as' });
  const newest = () => page.getByTestId('public-message').filter({ hasText: 'one more, alone' }).locator('time');
  // One format for every instant (decisions-web.md §36): the day, the time and the zone by name.
  const inUtc = /^\w{3} \d{1,2} \w{3}, \d\d:\d\d UTC$/;
  await times.getByRole('button', { name: 'UTC' }).click();
  await expect(times.getByRole('button', { name: 'UTC' })).toHaveAttribute('aria-pressed', 'true');
  await expect(newest()).toHaveText(inUtc);
  await expect(page.getByTestId('control-event').first().locator('time')).toHaveText(inUtc);
  await page.reload();
  await expect(page.getByRole('group', { name: 'Show times as' }).getByRole('button', { name: 'UTC' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(newest()).toHaveText(inUtc);

  await times.getByRole('button', { name: 'Relative' }).click();
  await expect(newest()).toHaveText(/^(just now|\d+ seconds? ago|\d+ minutes? ago)$/);
  // The exact instant stays one hover away, whatever the display.
  await expect(newest()).toHaveAttribute('title', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  await page.reload();
  await expect(
    page.getByRole('group', { name: 'Show times as' }).getByRole('button', { name: 'Relative' }),
  ).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('group', { name: 'Show times as' }).getByRole('button', { name: 'Local' }).click();
  // The browser's own zone, on a 24-hour clock, named by its short name.
  await expect(newest()).toHaveText(/^\w{3} \d{1,2} \w{3}, \d\d:\d\d \S+$/);
});
