// Several facilitators at once, against the real server, real MQTT agents and two browser
// contexts: names given at enrollment and in settings, each sees the other on a review-mode room
// and its queue without reloading, both decide the same candidate, and the one who lost reads who
// decided and when, in words. On the Operators screen a facilitator invites a colleague, changes
// her role and removes her, each after a confirmation; the activity log and its export say so by name.
import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type BrowserContext, type Page, expectConsoleErrors } from './support/test';
import { connectTestAgent, type TestAgent } from './support/agents';
import { createKey, inviteOperator } from './support/operators';
import { snap, snapAtBothWidths } from './support/screenshots';
import { perWorker } from './support/run-names';

test.describe.configure({ mode: 'serial' });

const ROOM = perWorker('crew');
const AGENT = 'agent.crew';
const contexts: BrowserContext[] = [];
let ana: Page;
let ben: Page;
/** The colleague Ana invites from the Operators screen. */
let cy: Page;
let agent: TestAgent;

/** Enrolls a new facilitator key in a fresh context, giving `name` on the enrollment page when set. */
async function enroll(browser: Browser, name?: string): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(await inviteOperator('facilitator'));
  await createKey(page);
  if (name) await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Enroll this key' }).click();
  await expect(page.getByText('You are enrolled as')).toHaveText('You are enrolled as Facilitator');
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
  return page;
}

test.beforeAll(async ({ browser }) => {
  ana = await enroll(browser, '  Ana  ');
  ben = await enroll(browser);
  const created = await ana.evaluate(async (id) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: 'Crew room', moderation: 'review' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
  agent = await connectTestAgent(AGENT);
  agent.heartbeat(ROOM, 'Crew agent');
});

test.afterAll(async () => {
  await agent?.close();
  for (const c of contexts) await c.close();
});

test('names: given at enrollment (trimmed) or later in settings; the account chip shows it, the did a click away', async () => {
  await expect(ana.getByTestId('account-name')).toHaveText('Ana');
  // Ben gave none: his chip shows his short did until he names himself.
  await expect(ben.getByTestId('account-name')).toHaveCount(0);
  await ben.getByRole('button', { name: /^Account:/ }).click();
  await ben.getByRole('link', { name: 'Give your name…' }).click();
  await expect(ben.getByRole('heading', { name: 'Your account' })).toBeVisible();
  const field = ben.getByLabel('Your name');
  await field.fill('Ben\u202e');
  await expect(ben.getByText('Your name must not contain bidirectional control characters.')).toBeVisible();
  await expect(ben.getByRole('button', { name: 'Save' })).toBeDisabled();
  await field.fill('Ben');
  await ben.getByRole('button', { name: 'Save' }).click();
  await expect(ben.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(ben.getByTestId('account-name')).toHaveText('Ben');
  await snap(ben, 'facilitators-account-name');
  await ben.goto('/');
  await ben.getByRole('button', { name: /^Account: Ben, facilitator/ }).click();
  await expect(ben.getByText(/^did:key:z6Mk/)).toBeVisible();
  await ben.keyboard.press('Escape');
});

test('presence and a lost race: both see each other, both decide one candidate, the loser reads who and when', async () => {
  expectConsoleErrors(/status of 409 .*\/approve\)$/);
  await ana.goto(`/rooms/${ROOM}`);
  await expect(ana.getByTestId('connection-status')).toHaveText('Live');
  const anaRoom = ana.locator(`[data-testid="presence"][data-where="/rooms/${ROOM}"]`);
  await expect(anaRoom).toContainText('Only you are here');

  // Ben arrives: Ana's header names him without a reload, and he sees her, on the room and its queue.
  await ben.goto(`/rooms/${ROOM}`);
  await expect(ben.getByTestId('connection-status')).toHaveText('Live');
  await expect(anaRoom).toContainText('Ben is here', { timeout: 10_000 });
  await expect(ben.locator(`[data-testid="presence"][data-where="/rooms/${ROOM}"]`)).toContainText('Ana is here');
  await expect(ben.locator(`[data-testid="presence"][data-where="/rooms/${ROOM}/review"]`)).toContainText(
    'Ana is here',
    { timeout: 10_000 },
  );
  await expect(ana.locator(`[data-testid="presence"][data-where="/rooms/${ROOM}/review"]`)).toContainText(
    'Ben is here',
    { timeout: 10_000 },
  );

  // A task with its mic, then one candidate that waits for review in both consoles.
  await ana.getByLabel('Agent', { exact: true }).fill(AGENT);
  await ana.getByLabel('Goal').fill('Summarise the incident');
  await ana.getByRole('button', { name: 'Assign with mic' }).click();
  const task = await agent.waitFor((topic, e) => topic === `rooms/${ROOM}/agents/${AGENT}/inbox` && e.type === 'task');
  const taskId = (task.payload as { task_id: string }).task_id;
  await expect(ana.locator(`[data-testid="active-grant"][data-task-id="${taskId}"]`)).toBeVisible();
  await agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'progress',
    content: { text: 'Root cause: an expired certificate' },
  });
  const anaQueue = ana.getByRole('list', { name: 'Candidates waiting for review' });
  const benQueue = ben.getByRole('list', { name: 'Candidates waiting for review' });
  await expect(anaQueue.getByTestId('review-item')).toHaveCount(1);
  await expect(benQueue.getByTestId('review-item')).toHaveCount(1);
  await snap(ben, 'facilitators-room-presence');

  // Ana starts a rejection: while she types her reason Ben's queue says she is deciding it.
  await anaQueue.getByRole('button', { name: /^Reject/ }).click();
  await expect(ana.getByRole('dialog')).toBeVisible();
  await expect(benQueue.getByTestId('review-claim')).toHaveText('Ana is deciding…');
  await expect(anaQueue.getByTestId('review-claim')).toHaveCount(0);
  await ana.keyboard.press('Escape');
  await expect(ana.getByRole('dialog')).toHaveCount(0);

  // Ben clicks first, but his request is held on the way until Ana's approval is through: the
  // race, made certain.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await ben.route(`**/api/rooms/${ROOM}/review/*/approve`, async (route) => {
    await held;
    await route.continue();
  });
  const benAnswer = ben.waitForResponse((r) => r.url().includes('/approve'));
  await benQueue.getByRole('button', { name: /^Approve/ }).click();
  const anaAnswer = ana.waitForResponse((r) => r.url().includes('/approve'));
  await anaQueue.getByRole('button', { name: /^Approve/ }).click();
  expect((await anaAnswer).status()).toBe(200);
  await expect(anaQueue.getByTestId('review-item')).toHaveCount(0);
  release();
  const lost = await benAnswer;
  expect(lost.status()).toBe(409);
  expect(await lost.json()).toMatchObject({
    code: 'CONFLICT',
    details: { decision: 'approved', decidedBy: { name: 'Ana' } },
  });

  // Told on the item that was lost, which stays in place in words (decisions-web.md §38).
  const notice = benQueue
    .getByTestId('lost-item')
    .filter({ hasText: 'Root cause: an expired certificate' })
    .getByTestId('lost-race');
  await expect(notice).toHaveText(/^Ana approved this (just now|\d+ seconds ago)\. Your decision was not applied\.$/);
  await expect(benQueue.getByTestId('review-item')).toHaveCount(0);
  // The task by its goal (decisions-web.md §33).
  await expect(ben.getByTestId('review-decision').filter({ hasText: 'Approved' })).toContainText(
    '“Summarise the incident”',
  );
  await expect(ben.getByTestId('review-decision').filter({ hasText: 'Approved' })).toContainText('Ana');
  // Ana is not told anything went wrong.
  await expect(ana.getByTestId('lost-race')).toHaveCount(0);
  await snap(ben, 'facilitators-lost-race');
  // Forgetting one who left (40 s without a heartbeat) is held by server/routes/operators.test.ts
  // on the server's clock, rather than by 40 s of waiting here.
});

test('a facilitator invites a colleague from the Operators screen; both see the invitation and the enrollment in the activity log', async ({
  browser,
}) => {
  await ana.goto('/settings/operators');
  await expect(ana.getByRole('heading', { name: 'Operators', exact: true })).toBeVisible();
  await ana.getByRole('button', { name: 'Make an invitation link' }).click();
  const link = (await ana.getByTestId('invite-link').textContent())!.trim();
  expect(link).toMatch(/\/enroll#token=[A-Za-z0-9_-]{43}$/);
  await expect(ana.getByTestId('pending-invite').filter({ hasText: 'made by Ana' })).toHaveCount(1);
  await snapAtBothWidths(ana, 'operators-invite');

  // Cy enrolls through it in a browser of her own.
  const context = await browser.newContext();
  contexts.push(context);
  cy = await context.newPage();
  await cy.goto(link);
  await createKey(cy);
  await cy.getByLabel('Your name').fill('Cy');
  await cy.getByRole('button', { name: 'Enroll this key' }).click();
  await expect(cy.getByText('You are enrolled as')).toHaveText('You are enrolled as Facilitator');

  // The link is used now: the list no longer holds it, and Cy is an operator.
  await ana.reload();
  await expect(ana.getByTestId('pending-invite').filter({ hasText: 'made by Ana' })).toHaveCount(0);
  await expect(ana.getByTestId('operator-row').filter({ hasText: 'Cy' })).toBeVisible();

  for (const page of [ana, cy]) {
    await page.goto('/activity?kind=operator');
    const entries = page.getByTestId('activity-entry');
    await expect(entries.filter({ hasText: 'Enrolled as a facilitator under the name “Cy”' }).first()).toBeVisible();
    await expect(entries.filter({ hasText: 'Invited a facilitator with a one-time link' }).first()).toContainText(
      'Ana',
    );
  }
  await snapAtBothWidths(cy, 'activity');
});

test('the facilitator makes the colleague an observer, then removes her, each after a confirmation; the activity log and its export say both by name', async () => {
  const cyDid = await cy.evaluate(
    async () => ((await (await fetch('/api/auth/session')).json()) as { did: string }).did,
  );
  await ana.goto('/settings/operators');
  const row = ana.locator(`[data-testid="operator-row"][data-did="${cyDid}"]`);
  const role = row.getByLabel('Role of Cy');
  await expect(role).toHaveValue('facilitator');

  // Picking a role asks first and says what changes; Cancel changes nothing.
  await role.selectOption('observer');
  const confirmRole = ana.getByRole('dialog', { name: 'Make Cy an observer?' });
  await expect(confirmRole).toContainText('Cy will only read from now on');
  await confirmRole.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmRole).toBeHidden();
  await expect(role).toHaveValue('facilitator');
  await role.selectOption('observer');
  await confirmRole.getByRole('button', { name: 'Make Cy an observer' }).click();
  await expect(confirmRole).toBeHidden();
  await expect(role).toHaveValue('observer');

  // Removing her signs her out: her console is closed first, so its refused requests are not read
  // as this journey's errors.
  await cy.context().close();
  await row.getByRole('button', { name: 'Remove Cy' }).click();
  const confirmRemove = ana.getByRole('dialog', { name: 'Remove Cy?' });
  await expect(confirmRemove).toContainText('Cy is signed out at once');
  await confirmRemove.getByRole('button', { name: 'Remove the operator' }).click();
  await expect(confirmRemove).toBeHidden();
  await expect(row).toHaveCount(0);

  // Both in the activity log, by name: hers is kept in the entries once she is gone.
  await ana.getByRole('link', { name: 'activity log' }).click();
  await expect(ana).toHaveURL(/\/activity\?kind=operator$/);
  const entries = ana.getByTestId('activity-entry');
  const made = entries.filter({ hasText: 'Made Cy an observer (was facilitator)' });
  const removed = entries.filter({ hasText: 'Removed Cy (observer) from the console' });
  for (const entry of [made, removed]) {
    await expect(entry).toHaveCount(1);
    await expect(entry.getByTestId('activity-who')).toHaveText('Ana');
    await expect(entry).not.toContainText('did:key');
  }

  // The export names the same actions, in the same words (CSV) and as records (JSON).
  const exported = async (format: 'CSV' | 'JSON') => {
    const downloading = ana.waitForEvent('download');
    await ana.getByRole('button', { name: `Export ${format}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^switchboard-activity-\\d{4}-\\d\\d-\\d\\dT\\d{6}Z\\.${format.toLowerCase()}$`),
    );
    await expect(ana.getByRole('status').filter({ hasText: download.suggestedFilename() })).toBeVisible();
    return readFile(await download.path(), 'utf8');
  };
  const csv = await exported('CSV');
  for (const words of [
    'Invited a facilitator with a one-time link',
    'Enrolled as a facilitator under the name “Cy”',
    'Made Cy an observer (was facilitator)',
    'Removed Cy (observer) from the console',
  ])
    expect(csv).toContain(words);
  const records = JSON.parse(await exported('JSON')) as {
    action: string;
    actorName: string | null;
    targetName: string | null;
  }[];
  const byAna = records.filter((r) => r.actorName === 'Ana');
  expect(byAna.map((r) => r.action)).toEqual(expect.arrayContaining(['operator.invite']));
  for (const action of ['operator.role', 'operator.remove'])
    expect(byAna.filter((r) => r.action === action).map((r) => r.targetName)).toEqual(['Cy']);
});

test('a used link says it was used, and a good link opened in the same tab then enrolls', async ({ browser }) => {
  expectConsoleErrors(/status of 401 .*\/api\/auth\/enroll\)$/);
  const used = await inviteOperator('observer');
  const first = await browser.newContext();
  contexts.push(first);
  const taker = await first.newPage();
  await taker.goto(used);
  await createKey(taker);
  await taker.getByRole('button', { name: 'Enroll this key' }).click();
  await expect(taker.getByText('You are enrolled as')).toBeVisible();

  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(used);
  await createKey(page);
  await page.getByRole('button', { name: 'Enroll this key' }).click();
  await expect(page.getByRole('alert')).toContainText('This enrollment link was already used');
  await snap(page, 'identity-enroll-used-link-reason');
  // A good link pasted into the same tab: the refusal goes, and enrolling works.
  const good = await inviteOperator('observer');
  await page.evaluate((hash) => (window.location.hash = hash), new URL(good).hash);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Enroll this key' }).click();
  await expect(page.getByText('You are enrolled as')).toHaveText('You are enrolled as Observer');
});
