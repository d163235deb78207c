// History retention from the room's header (docs/decisions-server.md §25): a facilitator reads
// what the room keeps, refuses a bad value in words, sets a limit, and finds it in the audit log;
// an observer reads the setting but cannot change it.
import { expect, test, type Browser, type BrowserContext, type Page } from './support/test';
import { enrollNewKey, inviteOperator } from './support/operators';
import { snap } from './support/screenshots';
import { perWorker } from './support/run-names';

test.describe.configure({ mode: 'serial' });

const ROOM = perWorker('retain');
const contexts: BrowserContext[] = [];
let page: Page;

async function enroll(browser: Browser, role: 'facilitator' | 'observer'): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  const p = await context.newPage();
  await enrollNewKey(p, await inviteOperator(role), role === 'facilitator' ? 'Facilitator' : 'Observer');
  return p;
}

test.beforeAll(async ({ browser }) => {
  page = await enroll(browser, 'facilitator');
  const created = await page.evaluate(async (id) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: 'Retention', moderation: 'auto' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
});

test.afterAll(async () => {
  for (const c of contexts) await c.close();
});

test("a facilitator sets a room's history retention from its header, and it is audited", async () => {
  await page.goto(`/rooms/${ROOM}`);
  const setting = page.getByTestId('retention-setting');
  await expect(setting).toContainText('Keeps all history');
  await setting.getByRole('button', { name: 'Change' }).click();
  const dialog = page.getByRole('dialog', { name: 'History retention' });
  await dialog.getByLabel('Keep the newest messages').fill('0');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('A whole number from 1 to 1,000,000,000')).toBeVisible();
  await dialog.getByLabel('Keep the newest messages').fill('5000');
  await dialog.getByLabel('Keep messages for (days)').fill('30');
  await snap(page, 'rooms-retention-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(setting).toContainText('Keeps the newest 5,000 messages, none older than 30 days');
  await snap(page, 'rooms-retention', { fullPage: false });

  await page.reload();
  await expect(page.getByTestId('retention-setting')).toContainText(
    'Keeps the newest 5,000 messages, none older than 30 days',
  );
  await page.getByRole('link', { name: 'Audit log & export' }).click();
  await expect(
    page
      .getByTestId('audit-entry')
      .filter({ hasText: 'Set history retention: keep the newest 5,000 messages, none older than 30 days' }),
  ).toHaveCount(1);
});

test('an observer reads the setting and has nothing to change it with', async ({ browser }) => {
  const observer = await enroll(browser, 'observer');
  await observer.goto(`/rooms/${ROOM}`);
  const setting = observer.getByTestId('retention-setting');
  await expect(setting).toContainText('Keeps the newest 5,000 messages');
  await expect(setting.getByRole('button', { name: 'Change' })).toHaveCount(0);
});
