// Forms that catch mistakes (decisions-web.md §26), against a demo server of its own: a task for an
// agent nobody knows is questioned, a 100 KB `say` is refused with its counter showing, a
// deadline in the past and a grant of 190 years are refused, an Agora request without its tool's
// required value is not sent; names with bidi controls and NUL show markers instead of acting.
// Nothing refused here reaches the broker or the relay; the browser logs no error.
import { expect, test, type Page } from './support/test';
import { openDemoConsole, type DemoConsole } from './support/demo-console';
import { snap } from './support/screenshots';

test.describe.configure({ mode: 'serial' });

const ROOM = 'forms';
let demo: DemoConsole;
let page: Page;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser, { context: { viewport: { width: 1440, height: 900 } } });
  page = demo.page;
  const status = await page.evaluate(
    async (id) =>
      (
        await fetch('/api/rooms', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id, name: 'Forms \u202eexe.txt\u0000 room' }),
        })
      ).status,
    ROOM,
  );
  expect(status).toBe(201);
});

test.afterAll(async () => {
  await demo?.close();
});

test.afterEach(() => {});

const roomForm = () => page.locator('form').filter({ has: page.getByRole('heading', { name: 'Assign task' }) });

test('a room name with a bidi override and NUL shows markers, not reversed text', async () => {
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forms ␦exe.txt␀ room');
  await page.goto('/rooms');
  await expect(page.getByRole('link', { name: /Forms ␦exe\.txt␀ room/ })).toBeVisible();
});

test('a task for an agent nobody knows is questioned before anything is sent', async () => {
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  const form = roomForm();
  await form.getByLabel('Agent', { exact: true }).fill('nobody.here');
  await form.getByLabel('Goal').fill('Summarise the incident');
  await form.getByRole('button', { name: 'Assign with mic' }).click();
  await expect(form.getByText('No agent “nobody.here” is known here')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Assign anyway' })).toBeVisible();
  await snap(page, 'forms-unknown-agent');
  // Nothing went out: no grant is live and the control log is empty.
  await expect(page.getByTestId('active-grant')).toHaveCount(0);
  await expect(page.getByTestId('control-event')).toHaveCount(0);
  // Another id is asked about afresh.
  await form.getByLabel('Agent', { exact: true }).fill('nobody.else');
  await expect(form.getByRole('button', { name: 'Assign with mic' })).toBeVisible();
});

test('a 100 KB say is refused before sending, with the counter red', async () => {
  const say = page.locator('form').filter({ has: page.getByLabel('Say in the room') });
  await say.getByLabel('Say in the room').fill('x'.repeat(100_000));
  const counter = say.getByTestId('char-counter');
  await expect(counter).toHaveText(/^100,000 \/ 4,000/);
  await expect(counter).toHaveAttribute('data-over', 'true');
  await expect(say.getByRole('button', { name: 'Say' })).toBeDisabled();
  await say.getByLabel('Say in the room').press('Enter');
  await snap(page, 'forms-oversize-say', { fullPage: false });
  await expect(page.getByTestId('public-message')).toHaveCount(0);
  // At the limit it may go.
  await say.getByLabel('Say in the room').fill('x'.repeat(4_000));
  await expect(counter).toHaveAttribute('data-over', 'false');
  await expect(say.getByRole('button', { name: 'Say' })).toBeEnabled();
  await say.getByLabel('Say in the room').fill('');
});

test('a grant of 190 years and a deadline in the past are refused in the room', async () => {
  const form = roomForm();
  await form.getByLabel('Agent', { exact: true }).fill('nobody.here');
  await form.getByLabel('Goal').fill('Keep going');
  await form.getByLabel('Grant expires in (minutes)').fill(String(190 * 365 * 24 * 60));
  await form.getByRole('button', { name: 'Assign with mic' }).click();
  await expect(form.getByRole('alert')).toContainText('A grant lasts at most 30 days');
  await form.getByLabel('Grant expires in (minutes)').fill('15');
  await form.getByLabel('Deadline in minutes (optional)').fill('-5');
  await form.getByRole('button', { name: 'Assign with mic' }).click();
  await expect(form.getByRole('alert')).toContainText('The deadline would be in the past');
  await expect(page.getByTestId('control-event')).toHaveCount(0);
});

test('a task deadline in the past is refused on the board', async () => {
  await page.goto('/tasks');
  const form = page.getByRole('form', { name: 'Assign a task' });
  await expect(form.getByLabel('Assign to').locator('option')).toHaveCount(3, { timeout: 20_000 });
  await form.getByLabel('Task title').fill('Yesterday’s report');
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 16);
  await form.getByLabel('Deadline (UTC)').fill(yesterday);
  await form.getByRole('button', { name: 'Sign and assign' }).click();
  await expect(form.getByText('The deadline is in the past: pick a time after now (UTC).')).toBeVisible();
  await expect(page.getByTestId('task-card')).toHaveCount(0);
  await form.getByLabel('Task title').fill('t'.repeat(201));
  await expect(form.getByTestId('char-counter')).toHaveAttribute('data-over', 'true');
  await expect(form.getByRole('button', { name: 'Sign and assign' })).toBeDisabled();
});

test('an Agora request without its tool’s required value is not sent', async () => {
  const posted: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/events') posted.push(r.url());
  });
  await page.goto('/directory');
  await page.getByRole('button', { name: 'Send a request for translation.en_zh to Demo Translator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send a request to Demo Translator' });
  await expect(dialog.getByText(/^Required\. Format: string/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Sign and send' }).click();
  await expect(dialog.getByText('text is required by this capability.')).toBeVisible();
  // Written as JSON, `{}` is refused the same way.
  await dialog.getByRole('checkbox', { name: 'Write params as JSON' }).check();
  await dialog.getByLabel('Params (JSON object)').fill('{}');
  await dialog.getByRole('button', { name: 'Sign and send' }).click();
  await expect(dialog.getByText('text is required by this capability.')).toBeVisible();
  await snap(page, 'forms-agora-required', { fullPage: false });
  await expect(page).toHaveURL(/\/directory$/);
  expect(posted).toEqual([]);
});
