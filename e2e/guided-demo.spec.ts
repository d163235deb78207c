// The guided demo end to end, with the demo agents on a server of its
// own (DEMO=1, fast pace, seed 7): from the Demo screen a facilitator gives a demo agent a task
// and sees it acknowledged and finished; answers a demo seller's offer and co-signs the
// agreement, which is logged;
// proposes a meeting with Ada and Room Atlas and books it. Each step's story is in plain words
// without raw ids and links to its own screen. Presenter mode is one key, listed behind `?`.
// "Start over" begins a fresh run and leaves the earlier one intact. SWITCHBOARD_SCREENSHOTS=1
// captures the screens into docs/screenshots/guided-demo-*.png for the README. Followed in the
// README's order (review mode on first), step 1 says what holds it and offers the fix.
import { expect, test, type BrowserContext, type Page } from './support/test';
import { turnOnReviewMode } from './support/rooms';
import { snap } from './support/screenshots';
import { enrollNewKey } from './support/operators';
import { startServer, type RunningServer } from './support/server';
import { cosignAgreement } from './support/cosign';

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  server = await startServer({ DEMO: '1', DEMO_PACE: 'fast', DEMO_SEED: '7' }, { enrollLinkWaitMs: 10_000 });
  if (!server.enrollUrl) throw new Error(`The demo server printed no enrollment link:\n${server.log()}`);
  context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await enrollNewKey(page, server.enrollUrl);
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

const step = (n: number) => page.getByTestId(`step-${n}`);
/** No DID, task id, message id or agent id leaks into a story. */
async function expectNoRawIds(n: number) {
  const text = await step(n).getByTestId('story').innerText();
  expect(text).not.toMatch(/did:key|task_|msg_|neg_|prp_|agent\.|urn:uuid/);
}

let negotiationPath = '';

/** A snap at 1440 and at 390 px, back to the journey's width after. */
async function snapWidths(name: string): Promise<void> {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await snap(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('step 1: a task for the Researcher is granted, acknowledged and finished, told in words', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Demo' }).click();
  await expect(page).toHaveURL(/\/demo$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Guided demo' })).toBeVisible();
  await expect(step(1)).toHaveAttribute('data-done', 'false');
  await snap(page, 'guided-demo-start');

  const give = step(1).getByRole('button', { name: 'Give the Researcher a task' });
  await expect(give).toBeEnabled({ timeout: 20_000 });
  await give.click();
  const story = step(1).getByTestId('story');
  await expect(story).toContainText('You gave Researcher the mic for 6 messages', { timeout: 20_000 });
  await expect(story).toContainText('You asked: “Compare three weather APIs');
  await expect(story).toContainText('Researcher took the task.', { timeout: 30_000 });
  await expect(story.locator('li[data-tone="milestone"]')).toContainText('Researcher finished:', { timeout: 60_000 });
  await expect(step(1)).toHaveAttribute('data-done', 'true');
  await expectNoRawIds(1);

  await step(1).getByRole('link', { name: 'Open the room' }).click();
  await expect(page).toHaveURL(/\/rooms\/demo$/);
  await expect(page.getByTestId('connection-status')).toHaveText('Live', { timeout: 20_000 });
  await page.goBack();
  await expect(step(1)).toHaveAttribute('data-done', 'true');
});

test('step 2: the demo seller offers, the operator counters and co-signs; the agreement is logged', async () => {
  await step(2).getByRole('button', { name: 'Ask Acme Weather API for an offer' }).click();
  const story = step(2).getByTestId('story');
  await expect(story).toContainText('Acme Weather API opened a pricing negotiation with you.', { timeout: 20_000 });
  const moves = step(2).getByTestId('party-actions');
  await moves.getByLabel('Price per call (EUR)').fill('0.0046');
  await moves.getByRole('button', { name: 'Sign and counter' }).click();
  await expect(story).toContainText(/Agreed: 0\.0046 EUR per call, 120,000 calls a month/, { timeout: 30_000 });
  await cosignAgreement(step(2).getByTestId('agreement-panel'));
  await expect(story).toContainText(/You co-signed the agreement; it is entry \d+ of the public log\./, {
    timeout: 30_000,
  });
  await expect(step(2)).toHaveAttribute('data-done', 'true');
  await expectNoRawIds(2);
  await snap(page, 'guided-demo-negotiated');

  await step(2).getByRole('link', { name: 'Open the negotiation' }).click();
  await expect(page).toHaveURL(/\/negotiations\/neg_/);
  negotiationPath = new URL(page.url()).pathname;
  await expect(page.getByText('ACCEPTED').first()).toBeVisible({ timeout: 20_000 });
  await page.goBack();
});

test('step 3: a meeting with Ada and Room Atlas is proposed, answered and booked', async () => {
  await step(3).getByRole('button', { name: 'Propose the meeting' }).click();
  const story = step(3).getByTestId('story');
  await expect(story).toContainText(
    'You proposed “Demo: review the weather API deal” to Ada (Berlin) and Room Atlas (Berlin).',
    { timeout: 20_000 },
  );
  const book = step(3).getByRole('button', {
    name: /^Book \w{3}(?: \d{1,2} \w{3},)? \d\d:\d\d–\d\d:\d\d [A-Z][\w+:-]*$/,
  });
  await expect(book).toBeVisible({ timeout: 30_000 });
  await expect(story).toContainText('Ada (Berlin) can make it');
  await expect(story).toContainText('Room Atlas (Berlin) can make it');
  await book.click();
  await expect(story.locator('li[data-tone="milestone"]')).toHaveText(
    /You booked Room Atlas \(Berlin\), \w{3}(?: \d{1,2} \w{3},)? \d\d:\d\d–\d\d:\d\d [A-Z][\w+:-]*\./,
    { timeout: 30_000 },
  );
  await expect(step(3)).toHaveAttribute('data-done', 'true');
  await expectNoRawIds(3);
  await snap(page, 'guided-demo-done');

  await step(3).getByRole('link', { name: 'Open the scheduling thread' }).click();
  await expect(page.getByTestId('thread-status')).toHaveText('CONFIRMED', { timeout: 20_000 });
  await page.goBack();
});

test('presenter mode: one key, listed behind ?, larger type and thicker focus, in light and dark', async () => {
  const html = page.locator('html');
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog.getByTestId('shortcuts-table')).toContainText('Presenter mode');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  const fontSize = () => page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
  // The subtitle is muted text (text-slate-600): presenter mode pulls it towards the text colour.
  const muted = () =>
    page
      .locator('main header p')
      .first()
      .evaluate((el) => getComputedStyle(el).color);
  expect(await fontSize()).toBe('16px');
  const normalMuted = await muted();
  await page.keyboard.press('p');
  await expect(html).toHaveClass(/presenter/);
  expect(await fontSize()).toBe('20px');
  await expect(page.getByRole('button', { name: 'Leave presenter mode' })).toHaveAttribute('aria-pressed', 'true');
  expect(await muted()).not.toBe(normalMuted);
  await snap(page, 'guided-demo-presenter');
  // Remembered across a reload, and typed keys in a field are not shortcuts.
  await page.reload();
  await expect(html).toHaveClass(/presenter/);
  await page.keyboard.press('p');
  await expect(html).not.toHaveClass(/presenter/);
  expect(await fontSize()).toBe('16px');
  expect(await muted()).toBe(normalMuted);
});

test('a story page tells any negotiation and replays it; Start over begins a fresh run and keeps the old one', async () => {
  const id = decodeURIComponent(negotiationPath.split('/').pop()!);
  await page.goto(`/story/negotiation/${encodeURIComponent(id)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Negotiation story' })).toBeVisible();
  await expect(page.getByTestId('story')).toContainText('Agreed:');
  await expect(page.getByTestId('story')).toContainText('Acme Weather API opened a pricing negotiation with you.');

  // Replay (decisions-web.md §13): from the start, scrubbed, at 10×, to the end; the URL keeps the speed.
  const total = await page.getByTestId('story').locator('li').count();
  await page.getByRole('button', { name: 'Replay from the start' }).click();
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page).toHaveURL(/replay=/);
  const progress = page.getByTestId('replay-progress');
  expect(Number((await progress.innerText()).split(' ')[0])).toBeLessThan(total);
  // Scrubbing, by keyboard on the slider: to the end and back to the start.
  const slider = page.getByLabel('Replay position');
  await slider.focus();
  await page.keyboard.press('End');
  await expect(progress).toHaveText(`${total} of ${total} steps`);
  await page.keyboard.press('Home');
  await expect(progress).toHaveText(`1 of ${total} steps`);
  await expect(page.getByTestId('story').locator('li')).toHaveCount(1);
  await page.getByLabel('Speed').selectOption('10');
  await expect(page).toHaveURL(/speed=10/);
  await expect(progress).toHaveText(`1 of ${total} steps`);
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(page.getByTestId('replay-progress')).toHaveText(`${total} of ${total} steps`, { timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Play again' })).toBeVisible();
  await expect(page.getByTestId('story')).toContainText('Agreed:');
  await snap(page, 'guided-demo-replay');
  await page.getByRole('link', { name: 'Back to live' }).click();
  await expect(page.getByTestId('replay-controls')).toHaveCount(0);

  await page.goto('/demo');
  await expect(step(3)).toHaveAttribute('data-done', 'true');
  await page.getByRole('button', { name: 'Start over' }).click();
  for (const n of [1, 2, 3]) await expect(step(n)).toHaveAttribute('data-done', 'false');
  await expect(step(2).getByRole('button', { name: 'Ask Acme Weather API for an offer' })).toBeVisible();
  await step(2).getByRole('button', { name: 'Ask Acme Weather API for an offer' }).click();
  await expect(step(2).getByRole('link', { name: 'Open the negotiation' })).toBeVisible({ timeout: 20_000 });
  await step(2).getByRole('link', { name: 'Open the negotiation' }).click();
  expect(new URL(page.url()).pathname).not.toBe(negotiationPath);
  // The earlier run's negotiation is untouched.
  await page.goto(negotiationPath);
  await expect(page.getByText('ACCEPTED').first()).toBeVisible({ timeout: 20_000 });
});

test('the README in its order: review mode on in the Demo room (step 4), then the guided demo (step 5) says what holds it and one click lets it finish', async () => {
  // README step 4: tick Review mode in the Demo room.
  await page.goto('/rooms/demo');
  await expect(page.getByTestId('connection-status')).toHaveText('Live', { timeout: 20_000 });
  await turnOnReviewMode(page);

  // README step 5: the guided demo, from a fresh run.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Demo' }).click();
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(step(1)).toHaveAttribute('data-done', 'false');
  const blocked = step(1).getByTestId('demo-blocked-review');
  await expect(blocked).toContainText('Review mode is on in the Demo room');
  await expect(blocked).toContainText('Each of the Researcher’s messages waits for a facilitator’s approval');
  await step(1).getByRole('button', { name: 'Give the Researcher a task' }).click();
  await expect(step(1).getByTestId('story')).toContainText('You gave Researcher the mic for 6 messages', {
    timeout: 20_000,
  });
  await snapWidths('guided-demo-review-blocked');
  // The fix it offers: approve what waits and turn review mode off, in one click.
  await blocked.getByRole('button', { name: /turn review mode off/ }).click();
  await expect(blocked).toHaveCount(0, { timeout: 20_000 });
  await expect(step(1).getByTestId('story').locator('li[data-tone="milestone"]')).toContainText(
    'Researcher finished:',
    { timeout: 60_000 },
  );
  await expect(step(1)).toHaveAttribute('data-done', 'true');
  await snapWidths('guided-demo-review-finished');
  await page.goto('/rooms/demo');
  await expect(page.getByRole('checkbox', { name: /Review mode/ })).not.toBeChecked();
});
