// Keys, confirmations and plain words (decisions-web.md §28), end to end against the real server,
// a real MQTT agent and Chromium: enrolling opens the console by itself; the missing-backup
// reminder is one line, waits a week when asked and hides in presenter mode; switching review
// mode asks first and says who is affected; J/K/A/R work whenever a review list is on screen,
// never while typing or with a dialog open; a single revoke, removing a service, walking away
// from or rejecting a negotiation ask first; removing a watched DID offers undo; "Cancel the
// meeting" without a reason marks the field; a service that cannot be reached, a task that
// ended normally and the demo hints are said in words, with no internal codes.
import { outsideSeller } from './support/outside-seller';
import { expect, test, type BrowserContext, type Page } from './support/test';
import { connectTestAgent, type TestAgent } from './support/agents';
import { createKey, inviteOperator } from './support/operators';
import { snap } from './support/screenshots';
import { perWorker } from './support/run-names';
import { openDemoConsole, type DemoConsole } from './support/demo-console';

test.describe.configure({ mode: 'serial' });

const ROOM = perWorker('keys');
const AGENT = 'agent.keys';
let context: BrowserContext;
let page: Page;
let agent: TestAgent;

/** Every snap of a dialog at the desktop and the phone width. */
async function snapBoth(name: string): Promise<void> {
  await snap(page, `${name}-1440`, { fullPage: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, `${name}-390`, { fullPage: false });
  await page.setViewportSize({ width: 1440, height: 900 });
}

const queueItems = () => page.getByRole('list', { name: 'Candidates waiting for review' }).getByTestId('review-item');
const candidate = (taskId: string, text: string) =>
  agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: 'progress',
    content: { text },
  });

/** Nothing has focus: keys reach the page as they would after reading, without a click. */
const blur = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  agent = await connectTestAgent(AGENT);
  agent.heartbeat(ROOM, 'Keys');
});

test.afterAll(async () => {
  await agent?.close();
  await context?.close();
});

test('enrolling opens the console by itself, saying the role and keeping the backup downloadable', async () => {
  await page.goto(await inviteOperator('facilitator'));
  const backup = await createKey(page);
  await page.getByRole('button', { name: 'Enroll this key' }).click();
  // No "Open the console" to press: the inbox opens on its own.
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const notice = page.getByTestId('enrolled-notice');
  await expect(notice.getByText('You are enrolled as')).toHaveText('You are enrolled as Facilitator');
  await expect(notice).toContainText(backup.suggestedFilename());
  await snap(page, 'keys-enrolled-notice');
  const again = page.waitForEvent('download');
  await notice.getByRole('button', { name: 'Download again' }).click();
  expect((await again).suggestedFilename()).toBe(backup.suggestedFilename());
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);

  const created = await page.evaluate(async (id) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: 'Keys', moderation: 'auto' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
});

test('the backup reminder takes one line, waits a week when asked, and never shows in presenter mode', async () => {
  // The key loses its backup mark, as a key made before backups existed has none.
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('switchboard-identity');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
    });
    const store = () => db.transaction('identity', 'readwrite').objectStore('identity');
    const record = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const get = store().get('operator');
      get.onsuccess = () => resolve(get.result as Record<string, unknown>);
      get.onerror = () => reject(get.error ?? new Error('get failed'));
    });
    delete record.backedUpAt;
    await new Promise((resolve, reject) => {
      const put = store().put(record, 'operator');
      put.onsuccess = resolve;
      put.onerror = () => reject(put.error ?? new Error('put failed'));
    });
    db.close();
  });
  await page.reload();
  const reminder = page.getByTestId('backup-reminder');
  await expect(reminder).toContainText('Your key has no backup.');
  // One line at 1440 px: the button's height plus the padding, not a paragraph.
  expect((await reminder.boundingBox())!.height).toBeLessThan(56);
  await snap(page, 'keys-backup-reminder');

  await blur();
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveClass(/presenter/);
  await expect(reminder).toHaveCount(0);
  await page.keyboard.press('p');
  await expect(reminder).toBeVisible();

  await reminder.getByRole('button', { name: 'Remind me in a week' }).click();
  await expect(reminder).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
  await expect(page.getByTestId('backup-reminder')).toHaveCount(0);
  const until = await page.evaluate(() => localStorage.getItem('switchboard.backup-reminder'));
  expect(until).toContain('did:key:');
});

test('review mode asks first, naming who it affects; then J/K/A/R work without a click, never while typing', async () => {
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  const box = page.getByRole('checkbox', { name: /Review mode/ });
  await box.click();
  const ask = page.getByRole('dialog', { name: 'Turn on review mode for everyone in this room?' });
  await expect(ask).toContainText('every agent’s message waits in a review queue');
  await expect(ask.getByTestId('review-mode-who')).toContainText('every facilitator and every agent');
  await snapBoth('keys-review-mode-confirm');
  // Cancel changes nothing.
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(box).not.toBeChecked();
  await box.click();
  await page.getByRole('button', { name: 'Turn on review mode' }).click();
  await expect(box).toBeChecked();

  await page.getByLabel('Agent', { exact: true }).fill(AGENT);
  await page.getByLabel('Goal').fill('Sort the tickets');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  const task = await agent.waitFor((topic, e) => topic === `rooms/${ROOM}/agents/${AGENT}/inbox` && e.type === 'task');
  const taskId = (task.payload as { task_id: string }).task_id;
  await candidate(taskId, 'First: tickets sorted by age');
  await candidate(taskId, 'Second: tickets sorted by team');
  await candidate(taskId, 'Third: for the inbox');
  await expect(queueItems()).toHaveCount(3);
  await expect(page.getByRole('region', { name: /Review queue/ }).getByTestId('review-keys-hint')).toHaveText(
    'J/K move · A approve · R reject',
  );

  // No click into the queue: the keys work from the page.
  await blur();
  await page.keyboard.press('j');
  await expect(queueItems().nth(1)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('k');
  await expect(queueItems().nth(0)).toHaveAttribute('aria-current', 'true');

  // Typing in a field decides nothing: the letters go into the field.
  const say = page.getByLabel('Goal');
  await say.fill('');
  await say.pressSequentially('jar');
  await expect(say).toHaveValue('jar');
  await expect(queueItems()).toHaveCount(3);
  await expect(queueItems().nth(0)).toHaveAttribute('aria-current', 'true');
  await say.fill('');
  await page.keyboard.press('Escape');

  await page.keyboard.press('a');
  await expect(queueItems()).toHaveCount(2);
  await expect(queueItems().nth(0)).toContainText('Second');

  // R opens the reason dialog; while it is open, A types and approves nothing.
  await page.keyboard.press('r');
  const reject = page.getByRole('dialog', { name: 'Reject this candidate' });
  await expect(reject).not.toContainText('facilitator_rejected');
  await reject.getByLabel('Reason').pressSequentially('a');
  await expect(reject.getByLabel('Reason')).toHaveValue('a');
  // The modal hides the page from the accessibility tree, so the rows are counted by test id.
  await expect(page.getByTestId('review-item')).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(reject).toHaveCount(0);

  // The shortcuts list says where the keys work.
  await blur();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('row').filter({ hasText: 'Approve the candidate' })).toContainText(
    'review queue or inbox',
  );
  await page.keyboard.press('Escape');

  // The inbox: the same keys, no click either.
  await page.goto('/');
  const rows = page.getByRole('feed', { name: 'Items waiting for you' }).getByTestId('inbox-item');
  const mine = rows.filter({ hasText: 'Third: for the inbox' });
  await expect(mine).toHaveCount(1);
  await expect(page.getByTestId('review-keys-hint')).toBeVisible();
  const index = await rows.evaluateAll((all) => all.findIndex((r) => r.textContent?.includes('Third: for the inbox')));
  await blur();
  for (let i = 0; i < index; i += 1) await page.keyboard.press('j');
  await expect(mine).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('a');
  await expect(mine).toHaveCount(0);

  await page.goto(`/rooms/${ROOM}`);
  await expect(queueItems()).toHaveCount(1);
  // Turning review mode off with a candidate waiting says so and asks what becomes of it.
  await box.click();
  const off = page.getByRole('dialog', { name: '1 candidate waits for review' });
  await expect(off).toContainText('otherwise it stays in the inbox and its agent waits for an answer');
  await off.getByRole('button', { name: 'Approve it and turn off' }).click();
  await expect(box).not.toBeChecked();
  await expect(page.getByTestId('public-message').filter({ hasText: 'Second: tickets sorted by team' })).toBeVisible();
});

test('revoking one mic asks first and says what it ends; Cancel keeps the grant', async () => {
  const grant = page.getByTestId('active-grant').first();
  await expect(grant).toBeVisible();
  await grant.getByRole('button', { name: /^Revoke mic of/ }).click();
  const ask = page.getByRole('dialog', { name: `Revoke ${AGENT}’s mic?` });
  await expect(ask).toContainText('This cannot be undone');
  await snapBoth('keys-revoke-confirm');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  await expect(grant).toBeVisible();

  await grant.getByRole('button', { name: /^Revoke mic of/ }).click();
  await ask.getByRole('button', { name: 'Revoke the mic' }).click();
  await agent.waitFor((topic, e) => topic === `rooms/${ROOM}/control` && e.type === 'mic_revoke');
  await expect(page.getByTestId('active-grant')).toHaveCount(0);
});

test('removing a service asks first; one that cannot be reached is said in words; a watched DID comes back with Undo', async () => {
  await page.goto('/settings/services');
  const form = page.getByRole('form', { name: 'Add a service' });
  await form.getByLabel('Name').fill('Nowhere relay');
  // Nothing listens on port 9: the service is down at once.
  await form.getByLabel('Base URL').fill('http://127.0.0.1:9');
  await form.getByRole('button', { name: 'Add service' }).click();
  const row = page.getByTestId('service-row').filter({ hasText: 'Nowhere relay' });
  await expect(row.getByTestId('service-status')).toContainText('Down', { timeout: 20_000 });
  await expect(row.getByTestId('service-status')).not.toContainText('fetch failed');

  await row.getByRole('button', { name: 'Remove Nowhere relay' }).click();
  const ask = page.getByRole('dialog', { name: 'Remove Nowhere relay?' });
  await expect(ask).toContainText('http://127.0.0.1:9');
  await snapBoth('keys-remove-service-confirm');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Remove Nowhere relay' }).click();
  await ask.getByRole('button', { name: 'Remove the service' }).click();
  await expect(row).toHaveCount(0);

  const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
  await page.getByLabel('DID to watch').fill(did);
  await page.getByRole('button', { name: 'Watch', exact: true }).click();
  const watched = page.getByTestId('watched-row').filter({ hasText: did });
  await expect(watched).toHaveCount(1);
  await watched.getByRole('button', { name: /^Stop watching/ }).click();
  await expect(watched).toHaveCount(0);
  await page.getByTestId('watch-undo').getByRole('button', { name: 'Undo' }).click();
  await expect(watched).toHaveCount(1);
  await expect(page.getByTestId('watch-undo')).toHaveCount(0);
  await watched.getByRole('button', { name: /^Stop watching/ }).click();
  await expect(watched).toHaveCount(0);
});

test.describe('on a demo server of its own', () => {
  const DEMO_SEED = 7;
  let demo: DemoConsole;
  let dp: Page;

  test.beforeAll(async ({ browser }) => {
    demo = await openDemoConsole(browser, { seed: DEMO_SEED, context: { viewport: { width: 1440, height: 900 } } });
    dp = demo.page;
  });

  test.afterAll(async () => {
    await demo?.close();
  });

  test('rejecting and walking away from a negotiation ask first, saying it ends for both parties', async () => {
    const seller = outsideSeller(demo.server.url, DEMO_SEED);
    await dp.goto('/negotiations');
    await dp.getByRole('button', { name: 'New negotiation' }).click();
    await dp.getByLabel('Counterparty DID').fill(seller.did);
    await dp.getByLabel('Category').selectOption('pricing');
    await dp.getByLabel('Price per call (EUR)').fill('0.0030');
    await dp.getByRole('button', { name: 'Sign, open and offer' }).click();
    await expect(dp).toHaveURL(/\/negotiations\/neg_/);
    const id = new URL(dp.url()).pathname.split('/').pop()!;
    await expect(dp.getByTestId('party-actions')).toContainText('Waiting for the other party’s answer to round 1');
    await seller.propose(id, { price_per_call_eur: '0.0042' }, 10 * 60_000);
    await expect(dp.getByRole('button', { name: 'Sign and reject…' })).toBeVisible({ timeout: 10_000 });

    await dp.getByLabel('Reason (optional)').fill('Too dear <b>for us</b>');
    await dp.getByRole('button', { name: 'Sign and reject…' }).click();
    const reject = dp.getByRole('dialog', { name: 'Reject round 2 and end the negotiation?' });
    await expect(reject).toContainText('The negotiation ends for both parties');
    await expect(reject).toContainText('Too dear <b>for us</b>');
    await snap(dp, 'keys-negotiation-reject-confirm', { fullPage: false });
    await reject.getByRole('button', { name: 'Cancel' }).click();
    await expect(reject).toHaveCount(0);

    await dp.getByRole('button', { name: 'Sign and walk away…' }).click();
    const away = dp.getByRole('dialog', { name: 'Walk away from this negotiation?' });
    await expect(away).toContainText('This cannot be undone');
    await dp.setViewportSize({ width: 390, height: 844 });
    await snap(dp, 'keys-negotiation-walk-away-confirm-390', { fullPage: false });
    await dp.setViewportSize({ width: 1440, height: 900 });
    await away.getByRole('button', { name: 'Sign and walk away' }).click();
    await expect(dp.getByTestId('party-actions')).toContainText('This negotiation has ended.', { timeout: 10_000 });
  });

  test('"Cancel the meeting" with no reason marks the field and says what is missing', async () => {
    await dp.goto('/scheduling');
    const form = dp.getByRole('form', { name: 'Propose a meeting' });
    await expect(form.getByLabel('Ada (Berlin) attendance')).toBeVisible({ timeout: 20_000 });
    await form.getByLabel('Title').fill('Keys review');
    await form.getByRole('button', { name: 'Sign and propose' }).click();
    await expect(dp).toHaveURL(/\/scheduling\/urn/);
    await dp.getByRole('button', { name: 'Cancel the meeting' }).click();
    const reason = dp.getByLabel('Reason for cancelling');
    await expect(reason).toBeFocused();
    await expect(reason).toHaveAttribute('aria-invalid', 'true');
    await expect(reason).toHaveAccessibleDescription('Give a reason the participants will read.');
    await expect(dp.getByTestId('thread-status')).not.toHaveText('CANCELLED');
    await snap(dp, 'keys-cancel-needs-reason');
    await reason.fill('Moved');
    await expect(reason).not.toHaveAttribute('aria-invalid', 'true');
  });

  test('a task that ended normally reads as such in the demo room: no internal code in the sentence', async () => {
    await dp.goto('/rooms/demo');
    const revoked = dp.getByTestId('control-event').filter({ hasText: 'Mic revoked' });
    // The demo facilitator closes each mic when its agent posts the result (reason task_complete).
    await expect(revoked.filter({ hasText: 'the task is done' }).first()).toBeVisible({ timeout: 60_000 });
    await expect(dp.getByTestId('control-event').filter({ hasText: 'task_complete' })).toHaveCount(0);
    await expect(dp.getByText('rejected (task_complete)')).toHaveCount(0);
  });
});
