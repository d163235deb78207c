// Humane formats on a demo server of its own (DEMO=1, fast pace, seed 7), in a browser set to
// Berlin time: the guided demo's booking names its zone; the scheduling thread says its duration
// in words, not as ISO 8601; a negotiation diff names a term in words, the JSON Pointer in its
// tooltip; a mic grant's end has its date and zone; a facilitator's rejection reads as words in
// the control log and the timeline, with the protocol's term only in a tooltip.
// docs/decisions-web.md §30. SWITCHBOARD_SCREENSHOTS=1 captures the screens.
import { expect, test, type Page } from './support/test';
import { taskSent, turnOffReviewMode, turnOnReviewMode } from './support/rooms';
import { openDemoConsole, type DemoConsole } from './support/demo-console';
import { snap } from './support/screenshots';

test.describe.configure({ mode: 'serial' });

let demo: DemoConsole;
let page: Page;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser, {
    context: { viewport: { width: 1440, height: 900 }, timezoneId: 'Europe/Berlin' },
  });
  page = demo.page;
});

test.afterAll(async () => {
  await demo?.close();
});

const step = (n: number) => page.getByTestId(`step-${n}`);
/** "Fri 27 Nov, 10:45 CET", with the year when it is not this year. */
const ABSOLUTE = String.raw`\w{3} \d{1,2} \w{3}( \d{4})?, \d\d:\d\d (CET|CEST)`;

test('the guided booking names its zone; the thread says its duration in words', async () => {
  await page.goto('/demo');
  await step(3).getByRole('button', { name: 'Propose the meeting' }).click();
  const book = step(3).getByRole('button', { name: /^Book \w{3}(?: \d{1,2} \w{3},)? \d\d:\d\d–\d\d:\d\d (CET|CEST)$/ });
  await expect(book).toBeVisible({ timeout: 30_000 });
  await book.click();
  await expect(step(3).getByTestId('story').locator('li[data-tone="milestone"]')).toHaveText(
    /booked Room Atlas \(Berlin\), \w{3}(?: \d{1,2} \w{3},)? \d\d:\d\d–\d\d:\d\d (CET|CEST)\./,
    { timeout: 30_000 },
  );
  await step(3).getByRole('link', { name: 'Open the scheduling thread' }).click();
  await expect(page.getByTestId('thread-status')).toHaveText('CONFIRMED', { timeout: 20_000 });
  const duration = page.getByTestId('thread-duration');
  await expect(duration).toHaveText('30 minutes');
  await expect(duration).toHaveAttribute('title', 'PT30M');
  await expect(page.locator('main')).not.toContainText(/PT\d+M|holds revision|UID =/);
  // In the operator's zone with its city, then in UTC (decisions-web.md §45).
  await expect(page.getByTestId('final-slot')).toContainText(
    /\d\d:\d\d–\d\d:\d\d (CET|CEST), Berlin · .*\d\d:\d\d–\d\d:\d\d UTC/,
  );
  await snap(page, 'formats-scheduling-thread');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'formats-scheduling-thread-phone');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('a negotiation diff names the term in words, the pointer in its tooltip', async () => {
  await page.goto('/demo');
  await step(2).getByRole('button', { name: 'Ask Acme Weather API for an offer' }).click();
  const price = step(2).getByTestId('party-actions').getByLabel('Price per call (EUR)');
  await expect(price).toHaveValue('0.0052', { timeout: 20_000 });
  await price.fill('0.0047');
  await step(2).getByTestId('party-actions').getByRole('button', { name: 'Sign and counter' }).click();
  await expect(step(2).getByTestId('story')).toContainText('You countered with 0.0047 EUR per call', {
    timeout: 20_000,
  });
  await step(2).getByRole('link', { name: 'Open the negotiation' }).click();
  await expect(page).toHaveURL(/\/negotiations\/neg_/);
  const term = page.getByTestId('term-change').getByTestId('term-name').filter({ hasText: 'price per call (EUR)' });
  await expect(term.first()).toBeVisible({ timeout: 20_000 });
  await expect(term.first()).toHaveAttribute('title', '/price_per_call_eur');
  await expect(page.getByTestId('terms-diff').first()).not.toContainText('/price_per_call_eur');
  // Opened and last activity read as times with a zone, not as ISO.
  await expect(page.locator('main')).toContainText(new RegExp(`opened ${ABSOLUTE}`));
  await snap(page, 'formats-negotiation');
});

test('a grant ends on a date; a facilitator’s rejection reads as words', async () => {
  await page.goto('/rooms/demo');
  await expect(page.getByTestId('connection-status')).toHaveText('Live', { timeout: 20_000 });
  await turnOnReviewMode(page);

  await page.getByLabel('Agent', { exact: true }).fill('agent.analyst');
  await page.getByLabel('Goal').fill('Check the quarterly numbers for outliers');
  await page.getByLabel('Budget (messages)').fill('4');
  await page.getByLabel('Grant expires in (minutes)').fill('5');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  const taskId = await taskSent(page, 'agent.analyst', 'Check the quarterly numbers for outliers');

  // The grant's end has a date and a zone, in the control log and on the live grant.
  await expect(
    page.locator(`[data-testid="control-event"][data-task-id="${taskId}"]`).filter({ hasText: 'Mic granted' }),
  ).toContainText(new RegExp(`until ${ABSOLUTE}`));
  const grant = page.locator(`[data-testid="active-grant"][data-task-id="${taskId}"]`);
  await expect(grant.getByTestId('grant-end')).toHaveText(new RegExp(`^ends ${ABSOLUTE}$`));
  await expect(grant.getByTestId('grant-countdown')).toContainText(/\d:\d\d left/);

  // Its first candidate waits for review; rejecting it says so in words.
  const item = page.getByTestId('review-item').first();
  await expect(item).toBeVisible({ timeout: 30_000 });
  await item.getByRole('button', { name: /^Reject / }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject this candidate' });
  await dialog.getByLabel('Reason').fill('Not before the figures are in');
  await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
  const declined = page.getByTestId('control-event').filter({ hasText: 'a facilitator declined it' });
  await expect(declined.first()).toBeVisible({ timeout: 20_000 });
  const log = page.getByRole('list', { name: 'Control events' });
  await expect(log).not.toContainText('facilitator_rejected');
  await expect(log).not.toContainText(' on control');

  // The timeline row says what it was; the protocol's words are only in the tooltip.
  // (The rejected candidate may be another task's: the demo facilitator assigns tasks too.)
  await page.getByLabel('Filter by topic').selectOption('control');
  const kind = page
    .getByTestId('public-message')
    .getByTestId('control-kind')
    .filter({ hasText: 'declined by a facilitator' });
  await expect(kind.first()).toBeVisible({ timeout: 20_000 });
  await expect(kind.first().locator('abbr')).toHaveAttribute('title', 'reject (facilitator_rejected) on control');
  await expect(
    page.getByTestId('public-message').filter({ hasText: 'declined by a facilitator' }).first(),
  ).not.toContainText('facilitator_rejected');
  await snap(page, 'formats-room');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'formats-room-phone');
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await turnOffReviewMode(page);
});
