// The inbox, the console's home, against the real server and a real MQTT agent: a review
// candidate reaches two facilitators' inboxes live, one claims it (the other sees who is deciding)
// and approves it inline, and it leaves both; a browser notification for the new item; the empty
// state with the live summary; the page at phone width; an item dismissed (decisions-server.md §75).
import { expect, test, type Browser, type BrowserContext, type Page } from './support/test';
import { connectTestAgent, type TestAgent } from './support/agents';
import { enrollFirstFacilitator } from './support/demo-console';
import { enrollNewKey, inviteOperator } from './support/operators';
import { startServer } from './support/server';
import { snap } from './support/screenshots';
import { identifiersInMain } from './support/identifier-scan';
import { perWorker } from './support/run-names';

test.describe.configure({ mode: 'serial' });

const ROOM = perWorker('inboxroom');
const AGENT = 'agent.inboxer';
const contexts: BrowserContext[] = [];
let first: Page;
let second: Page;
let agent: TestAgent;
let taskId: string;

declare global {
  interface Window {
    __notifications: { title: string; body: string }[];
  }
}

/** Records every notification the page raises, still passing it on to the browser. */
function spyOnNotifications() {
  window.__notifications = [];
  const Real = window.Notification;
  class Recorded extends Real {
    constructor(title: string, options?: NotificationOptions) {
      window.__notifications.push({ title, body: options?.body ?? '' });
      super(title, options);
    }
  }
  window.Notification = Recorded;
}

async function enroll(browser: Browser, notifications: boolean): Promise<Page> {
  const context = await browser.newContext(notifications ? { permissions: ['notifications'] } : {});
  contexts.push(context);
  await context.addInitScript(spyOnNotifications);
  const p = await context.newPage();
  await enrollNewKey(p, await inviteOperator('facilitator'), 'Facilitator');
  return p;
}

const inboxItems = (p: Page) => p.getByRole('feed', { name: 'Items waiting for you' }).getByTestId('inbox-item');

test.beforeAll(async ({ browser }) => {
  first = await enroll(browser, true);
  second = await enroll(browser, false);
});

test.afterAll(async () => {
  await agent?.close();
  for (const c of contexts) await c.close();
});

test('a quiet console says nothing needs you, with the live one-line summary', async ({ browser }) => {
  // A server of its own: the worker's server holds what earlier journeys left waiting.
  const server = await startServer({ DEMO: '0' }, { enrollLinkWaitMs: 5_000 });
  const context = await browser.newContext({ baseURL: server.url });
  try {
    if (!server.enrollUrl) throw new Error(`The server printed no enrollment link:\n${server.log()}`);
    const quiet = await context.newPage();
    await enrollFirstFacilitator(quiet, server.enrollUrl);
    await quiet.goto('/');
    await expect(quiet.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
    await expect(quiet.getByRole('heading', { name: 'Nothing needs you' })).toBeVisible();
    await expect(quiet.getByTestId('inbox-summary')).toHaveText(
      /^0 rooms active · 0 agents online · 0 rejects in the last hour$/,
    );
    await expect(quiet).toHaveTitle('Switchboard');
    await snap(quiet, 'inbox-empty');
  } finally {
    await context.close();
    await server.stop();
  }
});

test('a review candidate reaches both facilitators live, is claimed, approved inline by one, and leaves both', async () => {
  const created = await first.evaluate(async (id) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: 'Inbox journey', moderation: 'review' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
  agent = await connectTestAgent(AGENT);
  agent.heartbeat(ROOM, 'Inbox agent');

  // A task with its mic, from the room page, so the candidate passes the gateway's rules.
  await first.goto(`/rooms/${ROOM}`);
  await expect(first.getByTestId('connection-status')).toHaveText('Live');
  await first.getByLabel('Agent', { exact: true }).fill(AGENT);
  await first.getByLabel('Goal').fill('Summarise the incident');
  await first.getByRole('checkbox', { name: 'clarifying_question' }).check();
  await first.getByLabel('Budget (messages)').fill('20');
  await first.getByRole('button', { name: 'Assign with mic' }).click();
  const task = await agent.waitFor((topic, e) => topic === `rooms/${ROOM}/agents/${AGENT}/inbox` && e.type === 'task');
  taskId = (task.payload as { task_id: string }).task_id;

  await first.goto('/');
  await second.goto('/');
  await expect(first.getByTestId('inbox-status')).toHaveText('Live');
  await expect(second.getByTestId('inbox-status')).toHaveText('Live');
  // Notifications are asked for from the button; the context granted them, so no prompt shows.
  await first.getByRole('button', { name: 'Notify me of new items' }).click();
  await expect(first.getByRole('button', { name: /Notifications on/ })).toBeVisible();
  const before = await inboxItems(first).count();

  const long = `Root cause found <b>not bold</b>: ${'the cache was cold and the retries piled up; '.repeat(6)}`;
  await agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'result',
    content: { text: long },
  });

  const mine = inboxItems(first).filter({ hasText: 'Root cause found' });
  const theirs = inboxItems(second).filter({ hasText: 'Root cause found' });
  await expect(mine).toHaveCount(1);
  await expect(theirs).toHaveCount(1);
  await expect(inboxItems(first)).toHaveCount(before + 1);
  // What it is about, in words (decisions-web.md §32): the agent, the type and the task's goal,
  // the grant's budget left; the task id only behind the goal.
  // The agent by the name its heartbeat gives, once the naming service has it, else its id.
  await expect(mine.getByTestId('inbox-subject')).toHaveText(
    /^(agent\.inboxer|Inbox agent)’s result for “Summarise the incident” waits for review$/,
  );
  await expect(mine.getByTestId('inbox-budget')).toHaveText(/^\d+ messages? left on the grant$/);
  expect(await mine.innerText()).not.toContain(taskId);
  await first.setViewportSize({ width: 1440, height: 900 });
  await snap(first, 'decide-inbox-review');
  await first.setViewportSize({ width: 390, height: 844 });
  await snap(first, 'decide-inbox-review-phone');
  await first.setViewportSize({ width: 1280, height: 720 });
  // The room's own queue says the same.
  await second.goto(`/rooms/${ROOM}`);
  const queued = second.getByTestId('review-item').filter({ hasText: 'Root cause found' });
  await expect(queued.getByTestId('review-subject')).toHaveText(
    /^(agent\.inboxer|Inbox agent)’s result for “Summarise the incident”$/,
  );
  await expect(queued.getByTestId('review-budget-left')).toHaveText(/^\d+ of 20 messages left on the grant$/);
  // To a colleague the first facilitator, who gave no name, is "Operator …" in the control log
  // too: no identifier in the room's main content (decisions-web.md §46).
  await expect(second.getByTestId('control-event').first()).toContainText('Operator …');
  expect(await identifiersInMain(second)).toEqual([]);
  await second.setViewportSize({ width: 1440, height: 900 });
  await snap(second, 'decide-review-queue');
  await second.setViewportSize({ width: 390, height: 844 });
  await snap(second, 'decide-review-queue-phone');
  await second.setViewportSize({ width: 1280, height: 720 });
  await second.goto('/');
  await expect(theirs).toHaveCount(1);
  // Agent-written text is text: the tag shows as typed, and nothing became markup.
  await expect(mine.getByTestId('inbox-quote')).toContainText('<b>not bold</b>');
  await expect(mine.locator('b')).toHaveCount(0);
  await expect(mine.getByRole('button', { name: 'Show all' })).toBeVisible();
  await expect(first).toHaveTitle(`(${before + 1}) Switchboard`);
  await expect(first.locator('link[rel="icon"]')).toHaveAttribute('href', /^data:image\/svg\+xml,/);

  // The notification for the new item, with the agent's words as its body.
  await expect
    .poll(() => first.evaluate(() => window.__notifications.map((n) => n.body).join('\n')))
    .toContain('Root cause found');
  expect(await second.evaluate(() => window.__notifications.length)).toBe(0);

  // Opening the reject dialog claims the item: the other facilitator sees who is deciding.
  await mine.getByRole('button', { name: 'Reject' }).click();
  const dialog = first.getByRole('dialog', { name: 'Reject this candidate' });
  await expect(dialog).toBeVisible();
  await expect(theirs.getByTestId('inbox-claim')).toHaveText(/is deciding…$/);
  await snap(second, 'inbox-claimed');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await snap(first, 'inbox');

  await mine.getByRole('button', { name: 'Approve' }).click();
  await expect(mine).toHaveCount(0);
  await expect(theirs).toHaveCount(0);
  const approved = await agent.waitFor(
    (topic, e) => topic === `rooms/${ROOM}/public` && JSON.stringify(e.payload).includes('Root cause found'),
  );
  expect(approved.type).toBe('result');
});

test('a second candidate at phone width: no sideways scroll, and J then A approves it from the keyboard', async () => {
  await first.setViewportSize({ width: 390, height: 844 });
  await agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'result',
    content: { text: `Second result, a long unbroken token: ${'x'.repeat(120)}` },
  });
  const item = inboxItems(first).filter({ hasText: 'Second result' });
  await expect(item).toHaveCount(1);
  const widths = await first.evaluate(() => ({
    doc: document.documentElement.scrollWidth,
    view: window.innerWidth,
  }));
  expect(widths.doc).toBe(widths.view);
  await snap(first, 'inbox-phone');
  // J/K move and A approves from the keyboard, as in a room's review queue.
  await first.getByRole('feed', { name: 'Items waiting for you' }).focus();
  const index = await inboxItems(first).evaluateAll((rows) =>
    rows.findIndex((r) => r.textContent?.includes('Second result')),
  );
  for (let i = 0; i < index; i += 1) await first.keyboard.press('j');
  await expect(item).toHaveAttribute('aria-current', 'true');
  await first.keyboard.press('a');
  await expect(item).toHaveCount(0);
  await expect(inboxItems(second).filter({ hasText: 'Second result' })).toHaveCount(0);
  await first.setViewportSize({ width: 1280, height: 720 });
});

test('an observer sees the same list read-only, the actions disabled with the reason', async ({ browser }) => {
  const context = await browser.newContext();
  contexts.push(context);
  const observer = await context.newPage();
  await enrollNewKey(observer, await inviteOperator('observer'), 'Observer');
  await agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'result',
    content: { text: 'Third result, for the observer to see' },
  });
  const seen = inboxItems(observer).filter({ hasText: 'Third result' });
  await expect(seen).toHaveCount(1);
  await expect(observer.getByText('You are an observer')).toBeVisible();
  await expect(seen.getByRole('button', { name: 'Approve' })).toBeDisabled();
  await expect(seen.getByRole('button', { name: 'Reject' })).toBeDisabled();
  await expect(seen).toContainText('acting is for facilitators');
  await snap(observer, 'inbox-observer');
  // A facilitator settles it, and it leaves the observer's list too.
  await inboxItems(first).filter({ hasText: 'Third result' }).getByRole('button', { name: 'Approve' }).click();
  await expect(seen).toHaveCount(0);
});

test('an agent’s question is answered from the inbox: a say mentioning it, and the item leaves', async () => {
  await agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'clarifying_question',
    content: { question: 'Which region should I look at first?' },
  });
  // In a review-mode room the question is a candidate first; approved, it is a question.
  const candidate = inboxItems(first).and(first.locator('[data-kind="review"]'));
  await expect(candidate).toHaveCount(1);
  await candidate.getByRole('button', { name: 'Approve' }).click();
  const question = inboxItems(first).and(first.locator('[data-kind="question"]'));
  await expect(question).toHaveCount(1);
  await expect(question).toContainText('Which region should I look at first?');
  await question.getByRole('button', { name: 'Answer' }).click();
  await question.getByLabel(/Your answer to agent\.inboxer/).fill('Start with eu-west.');
  await snap(first, 'inbox-answer');
  await question.getByRole('button', { name: 'Send' }).click();
  const said = await agent.waitFor((topic, e) => topic === `rooms/${ROOM}/public` && e.type === 'say');
  expect((said.payload as { text: string }).text).toBe(`@${AGENT} Start with eu-west.`);
  await expect(question).toHaveCount(0);
  await expect(inboxItems(second).and(second.locator('[data-kind="question"]'))).toHaveCount(0);
});

test('muting a room in the settings keeps its new items out of notifications, not out of the list', async () => {
  await first.goto('/settings/inbox');
  await expect(first.getByRole('heading', { name: 'Inbox notifications' })).toBeVisible();
  await first.getByRole('checkbox', { name: ROOM }).uncheck();
  await snap(first, 'inbox-settings');
  const stored = await first.evaluate(() =>
    Object.entries(localStorage).find(([k]) => k.startsWith('switchboard.inbox.notify.did:key:')),
  );
  expect(JSON.parse(stored![1])).toMatchObject({ enabled: true, mutedRooms: [ROOM] });

  await first.getByRole('link', { name: '← Inbox' }).click();
  const before = await first.evaluate(() => window.__notifications.length);
  await agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'result',
    content: { text: 'Fourth result, in a muted room' },
  });
  const item = inboxItems(first).filter({ hasText: 'Fourth result' });
  await expect(item).toHaveCount(1);
  // The other facilitator, who muted nothing, has it too; only the notification stays quiet.
  await expect(inboxItems(second).filter({ hasText: 'Fourth result' })).toHaveCount(1);
  expect(await first.evaluate(() => window.__notifications.length)).toBe(before);
  await item.getByRole('button', { name: 'Approve' }).click();
  await expect(item).toHaveCount(0);
});

test('a facilitator dismisses an item from the inbox: it leaves both facilitators’ lists', async () => {
  await first.setViewportSize({ width: 1440, height: 900 });
  await agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'result',
    content: { text: 'Fifth result, nobody needs to decide this one' },
  });
  const item = inboxItems(first).filter({ hasText: 'Fifth result' });
  await expect(item).toHaveCount(1);
  await expect(inboxItems(second).filter({ hasText: 'Fifth result' })).toHaveCount(1);
  await snap(first, 'inbox-dismiss');
  await item.getByRole('button', { name: /^Dismiss: / }).click();
  await expect(item).toHaveCount(0);
  await expect(inboxItems(second).filter({ hasText: 'Fifth result' })).toHaveCount(0);
});
