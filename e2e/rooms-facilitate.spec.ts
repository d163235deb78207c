// Facilitating a room end to end, against the real server and real MQTT agents: review mode by
// keyboard with a second facilitator watching, revoking mid-task, "revoke every mic" with its
// confirmation, the audit log with its exports, keyboard shortcuts, and an observer who sees the
// grant meter and the queue but cannot act.
import { readFile } from 'node:fs/promises';
import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Download,
  type Page,
  expectConsoleErrors,
} from './support/test';
import { parseCsv } from '../web/lib/export/csv';
import { connectTestAgent, type TestAgent } from './support/agents';
import { enrollNewKey, inviteOperator } from './support/operators';
import { snap } from './support/screenshots';
import { perWorker } from './support/run-names';

test.describe.configure({ mode: 'serial' });

const ROOM = perWorker('facil');
const ALPHA = 'agent.alpha';
const BETA = 'agent.beta';
const contexts: BrowserContext[] = [];
let page: Page;
let second: Page;
let alpha: TestAgent;
let beta: TestAgent;
const tasks: Record<string, string> = {};

async function enroll(browser: Browser, role: 'facilitator' | 'observer'): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  const p = await context.newPage();
  await enrollNewKey(p, await inviteOperator(role), role === 'facilitator' ? 'Facilitator' : 'Observer');
  return p;
}

/** Assigns a task with its mic from the console; resolves with the task id the agent received. */
async function assign(p: Page, agent: TestAgent, goal: string): Promise<string> {
  await p.getByLabel('Agent', { exact: true }).fill(agent.agentId);
  await p.getByLabel('Goal').fill(goal);
  await p.getByRole('button', { name: 'Assign with mic' }).click();
  const task = await agent.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/agents/${agent.agentId}/inbox` &&
      e.type === 'task' &&
      (e.payload as { goal: string }).goal === goal,
  );
  const taskId = (task.payload as { task_id: string }).task_id;
  await expect(p.locator(`[data-testid="active-grant"][data-task-id="${taskId}"]`)).toBeVisible();
  return taskId;
}

/** The checkbox follows the server's answer, so click and wait rather than `check()`. */
async function setReviewMode(p: Page, on: boolean): Promise<void> {
  const box = p.getByRole('checkbox', { name: /Review mode/ });
  if ((await box.isChecked()) !== on) {
    await box.click();
    await p.getByRole('button', { name: on ? 'Turn on review mode' : 'Turn off review mode' }).click();
  }
  await expect(box).toBeChecked({ checked: on });
}

const candidate = (agent: TestAgent, taskId: string, messageType: string, text: string) =>
  agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: messageType,
    content: { text },
  });

async function saved(download: Download): Promise<string> {
  return readFile((await download.path())!, 'utf8');
}

test.beforeAll(async ({ browser }) => {
  page = await enroll(browser, 'facilitator');
  const created = await page.evaluate(async (id) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: 'Facilitation', moderation: 'auto' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
  [alpha, beta] = await Promise.all([connectTestAgent(ALPHA), connectTestAgent(BETA)]);
  alpha.heartbeat(ROOM, 'Alpha');
  beta.heartbeat(ROOM, 'Beta');
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
});

test.afterAll(async () => {
  await alpha?.close();
  await beta?.close();
  for (const c of contexts) await c.close();
});

test('review mode by keyboard: J/K/A approves one, R with a reason rejects the other, and a second facilitator sees both', async ({
  browser,
}) => {
  second = await enroll(browser, 'facilitator');
  await second.goto(`/rooms/${ROOM}`);
  await expect(second.getByTestId('connection-status')).toHaveText('Live');

  await setReviewMode(page, true);
  await expect(page.getByRole('heading', { name: /Review queue/ })).toBeVisible();
  // A moderation switch is not announced to other consoles yet (see the report): the second
  // facilitator opens the room after it; from here on, everything reaches them live.
  await second.reload();
  await expect(second.getByRole('heading', { name: /Review queue/ })).toBeVisible();
  const t1 = await assign(page, alpha, 'Find the root cause');
  tasks.t1 = t1;
  await expect(page.getByTestId('grant-meter').first()).toContainText('0/5 used');
  await expect(page.getByTestId('grant-countdown').first()).toContainText(/1[45]:\d\d left/);

  const first = await candidate(alpha, t1, 'progress', 'Candidate one: reading logs');
  const other = await candidate(alpha, t1, 'progress', 'Candidate two: off topic');
  const queue = page.getByRole('list', { name: 'Candidates waiting for review' });
  await expect(queue.getByTestId('review-item')).toHaveCount(2);
  await expect(queue.getByTestId('review-budget').first()).toContainText('0/5 used');
  await expect(second.getByTestId('review-item')).toHaveCount(2);
  await snap(page, 'rooms-review-queue');

  await queue.focus();
  await page.keyboard.press('j');
  await expect(queue.getByTestId('review-item').nth(1)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('k');
  await expect(queue.getByTestId('review-item').nth(0)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('a');
  await expect(queue.getByTestId('review-item')).toHaveCount(1);
  await expect(queue.getByTestId('review-item')).toContainText('Candidate two');
  await expect(queue).toBeFocused();

  await page.keyboard.press('r');
  const dialog = page.getByRole('dialog', { name: 'Reject this candidate' });
  await expect(dialog.getByLabel('Reason')).toBeFocused();
  await page.keyboard.type('Off topic for this task');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(queue).toBeFocused();
  await expect(queue).toContainText('Nothing waits for review.');

  // The other facilitator sees both decisions without reloading.
  const decisions = second.getByTestId('review-decision');
  // The task by its goal (decisions-web.md §33).
  await expect(decisions.filter({ hasText: 'Approved' })).toContainText('“Find the root cause”');
  await expect(decisions.filter({ hasText: 'Rejected' })).toContainText('Off topic for this task');
  await expect(second.getByTestId('review-item')).toHaveCount(0);

  // The agent: the approved message on public, unchanged; a facilitator_rejected reject on control.
  const published = await alpha.waitFor((topic, e) => topic === `rooms/${ROOM}/public` && e.id === first);
  expect((published.payload as { content: { text: string } }).content.text).toBe('Candidate one: reading logs');
  const reject = await alpha.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/control` &&
      e.type === 'reject' &&
      (e.payload as { message_id: string }).message_id === other,
  );
  expect(reject.payload).toMatchObject({ reason: 'facilitator_rejected', task_id: t1 });
  await expect(page.getByTestId('public-message').filter({ hasText: 'Candidate one: reading logs' })).toBeVisible();
  await expect(page.locator(`[data-testid="active-grant"][data-task-id="${t1}"]`)).toContainText('1/5 used');

  await setReviewMode(page, false);
  await expect(page.getByRole('heading', { name: /Review queue/ })).toHaveCount(0);
});

test('revoking mid-task: the agent’s next candidate is rejected as mic_revoked, in words', async () => {
  const t2 = await assign(page, beta, 'Check the backups');
  tasks.t2 = t2;
  await candidate(beta, t2, 'ack', 'On it: checking backups');
  await expect(page.getByTestId('public-message').filter({ hasText: 'On it: checking backups' })).toBeVisible();
  await page.getByRole('button', { name: `Revoke mic of ${BETA} for ${t2}` }).click();
  await page
    .getByRole('dialog', { name: `Revoke ${BETA}’s mic?` })
    .getByRole('button', { name: 'Revoke the mic' })
    .click();
  await beta.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/control` && e.type === 'mic_revoke' && (e.payload as { task_id: string }).task_id === t2,
  );
  await expect(page.locator(`[data-testid="active-grant"][data-task-id="${t2}"]`)).toHaveCount(0);

  const late = await candidate(beta, t2, 'progress', 'Still checking');
  const reject = await beta.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/control` &&
      e.type === 'reject' &&
      (e.payload as { message_id: string }).message_id === late,
  );
  expect(reject.payload).toMatchObject({ reason: 'mic_revoked' });
  await expect(page.locator(`[data-testid="control-event"][data-about-message-id="${late}"]`)).toContainText(
    'the mic for this task was revoked',
  );
  await expect(page.getByTestId('public-message').filter({ hasText: 'Still checking' })).toHaveCount(0);

  // The grant history tells how the grant for this task ended.
  await page
    .getByTestId('grant-history')
    .getByText(/Grant history/)
    .click();
  await expect(page.getByTestId('grant-history-entry').filter({ hasText: BETA })).toContainText(
    '1/5 used, revoked (revoked by facilitator)',
  );
});

test('revoke every mic lists exactly the active grants before acting, then both end', async () => {
  const t3 = await assign(page, beta, 'Draft the summary');
  tasks.t3 = t3;
  await expect(page.getByTestId('active-grant')).toHaveCount(2);
  await page.getByRole('button', { name: 'Revoke every mic…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke every mic in this room' });
  const rows = dialog.getByTestId('bulk-revoke-row');
  await expect(rows).toHaveCount(2);
  // Each task by its goal (decisions-web.md §33), its id on the row's task name.
  const row = (taskId: string) => rows.filter({ has: page.locator(`[data-task-id="${taskId}"]`) });
  await expect(row(tasks.t1!)).toContainText(ALPHA);
  await expect(row(tasks.t1!)).toContainText('“Find the root cause”');
  await expect(row(tasks.t1!)).toContainText('1/5');
  await expect(row(t3)).toContainText(BETA);
  await expect(row(t3)).toContainText(/1[45]:\d\d/);
  await snap(page, 'rooms-bulk-revoke', { fullPage: false });
  // Nothing happened yet.
  await expect(page.getByTestId('control-event').filter({ hasText: `Mic revoked from ${ALPHA}` })).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Revoke 2 mics' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Revoked 2 of 2 grants.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Nobody holds the mic.')).toBeVisible();
  await alpha.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/control` &&
      e.type === 'mic_revoke' &&
      (e.payload as { task_id: string }).task_id === tasks.t1,
  );
  await beta.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/control` && e.type === 'mic_revoke' && (e.payload as { task_id: string }).task_id === t3,
  );
});

test('shortcuts are listed behind ?, and g r goes to the rooms', async () => {
  await page.locator('body').click({ position: { x: 5, y: 200 } });
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('shortcuts-table')).toContainText('Reject the candidate, with a reason');
  await expect(dialog.getByTestId('shortcuts-table')).toContainText('Pause or resume the live tail');
  await snap(page, 'rooms-shortcuts', { fullPage: false });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.keyboard.press('g');
  await page.keyboard.press('r');
  await expect(page).toHaveURL(/\/rooms$/);
  await page.goto(`/rooms/${ROOM}`);
});

test('the audit log lists tasks, grants, revokes and review decisions, and exports JSON and CSV', async () => {
  await page.getByRole('link', { name: 'Audit log & export' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const entries = page.getByTestId('audit-entry');
  // Tasks by their goals (decisions-web.md §33).
  const t1 = '“Find the root cause”';
  await expect(entries.filter({ hasText: `Assigned ${ALPHA} a task: ${t1}` })).toHaveCount(1);
  await expect(entries.filter({ hasText: `Granted the mic to ${ALPHA} for ${t1}: 5 messages` })).toHaveCount(1);
  await expect(entries.filter({ hasText: `Revoked the mic from ${BETA} for “Check the backups”` })).toHaveCount(1);
  await expect(entries.filter({ hasText: `Approved ${ALPHA}’s candidate for ${t1}` })).toHaveCount(1);
  await expect(
    entries.filter({ hasText: `Rejected ${ALPHA}’s candidate for ${t1}: “Off topic for this task”` }),
  ).toHaveCount(1);
  await expect(entries.filter({ hasText: 'Switched moderation from auto to review' })).toHaveCount(1);
  await expect(entries.first().getByRole('link', { name: 'In timeline' })).toHaveAttribute(
    'href',
    new RegExp(`^/rooms/${ROOM}\\?m=\\d+$`),
  );
  // Who acted, by name (the naming service): the operator's own actions read "You", the did one click away.
  await expect(entries.first().getByTestId('audit-who')).toHaveText('You');
  await snap(page, 'rooms-audit');

  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Audit log as JSON' }).click(),
  ]);
  expect(json.suggestedFilename()).toMatch(/^switchboard-facil(-w\d+)?-audit-.*\.json$/);
  const audit = JSON.parse(await saved(json)) as { action: string; details: Record<string, unknown> }[];
  const actions = audit.map((e) => e.action);
  for (const a of [
    'room.task',
    'room.mic_grant',
    'room.mic_revoke',
    'review.approve',
    'review.reject',
    'room.moderation',
  ])
    expect(actions).toContain(a);
  expect(actions.filter((a) => a === 'room.mic_revoke')).toHaveLength(3);

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Audit log as CSV' }).click(),
  ]);
  const records = parseCsv(await saved(csv));
  expect(records[0]).toEqual(['id', 'at', 'actor_did', 'action', 'what', 'message_id', 'details']);
  expect(records).toHaveLength(audit.length + 1);
  const rejected = records.find((r) => r[3] === 'review.reject')!;
  expect(rejected[4]).toBe(`Rejected ${ALPHA}’s candidate for ${t1}: “Off topic for this task”`);
  expect(JSON.parse(rejected[6]!)).toMatchObject({ reason: 'Off topic for this task' });
  await expect(page.getByRole('status').filter({ hasText: /Saved \d+ audit entries/ })).toBeVisible();

  const [history] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Room history as JSON' }).click(),
  ]);
  const messages = JSON.parse(await saved(history)) as { raw: string; topicKind: string }[];
  expect(messages.some((m) => m.topicKind === 'public' && m.raw.includes('Candidate one: reading logs'))).toBe(true);
  const [historyCsv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Room history as CSV' }).click(),
  ]);
  const rows = parseCsv(await saved(historyCsv));
  // The agents keep heartbeating, so the later CSV export may hold a few more rows than the JSON
  // one; it starts with exactly the same messages, in the same order.
  expect(rows.length).toBeGreaterThanOrEqual(messages.length + 1);
  // Raw envelopes hold commas and quotes: each survives quoting byte for byte.
  expect(rows.slice(1, messages.length + 1).map((r) => r[7])).toEqual(messages.map((m) => m.raw));
});

test('an observer sees the grant meter and the queue but cannot act', async ({ browser }) => {
  // The observer's attempts to act are refused by the server (403), which the browser logs.
  expectConsoleErrors(/status of 403/);
  await page.goto(`/rooms/${ROOM}`);
  await setReviewMode(page, true);
  const t4 = await assign(page, alpha, 'One more look');
  await candidate(alpha, t4, 'progress', 'Waiting for a decision');
  await expect(page.getByTestId('review-item')).toHaveCount(1);

  const observer = await enroll(browser, 'observer');
  await observer.goto(`/rooms/${ROOM}`);
  await expect(observer.getByText('You are observing')).toBeVisible();
  const grant = observer.locator(`[data-testid="active-grant"][data-task-id="${t4}"]`);
  await expect(grant.getByTestId('grant-meter')).toContainText('0/5 used');
  await expect(grant.getByTestId('grant-countdown')).toBeVisible();
  const item = observer.getByTestId('review-item');
  await expect(item).toContainText('Waiting for a decision');
  await expect(item.getByTestId('review-budget')).toContainText('0/5 used');
  await expect(item.getByRole('button', { name: /^Approve/ })).toBeDisabled();
  await expect(item.getByRole('button', { name: /^Reject/ })).toBeDisabled();
  await expect(observer.getByRole('button', { name: 'Revoke every mic…' })).toBeDisabled();
  await expect(observer.getByRole('button', { name: `Revoke mic of ${ALPHA} for ${t4}` })).toBeDisabled();
  // Keys do nothing for an observer either.
  await observer.getByRole('list', { name: 'Candidates waiting for review' }).focus();
  await observer.keyboard.press('a');
  await expect(page.getByTestId('review-item')).toHaveCount(1);
  // Nor does going around the console: the server refuses an observer's actions (each 403 is
  // logged by the browser).
  expectConsoleErrors(/status of 403 \(Forbidden\)/);
  const refused = await observer.evaluate(async (room) => {
    const item = (
      (await (await fetch(`/api/rooms/${room}/review?status=pending`)).json()) as { items: { id: number | string }[] }
    ).items[0]!;
    const post = (path: string, body: unknown, method = 'POST') =>
      fetch(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        async (r) => [r.status, ((await r.json()) as { code: string }).code],
      );
    return [
      await post(`/api/rooms/${room}/review/${item.id}/approve`, {}),
      await post(`/api/rooms/${room}`, { moderation: 'auto' }, 'PATCH'),
      await post('/api/rooms', { id: 'observer-room', name: 'No' }),
    ];
  }, ROOM);
  expect(refused).toEqual([
    [403, 'FORBIDDEN'],
    [403, 'FORBIDDEN'],
    [403, 'FORBIDDEN'],
  ]);
  await expect(item).toContainText('Waiting for a decision');
});
