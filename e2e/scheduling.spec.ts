// Scheduling in the console, end to end, with the demo's OACoP agents on a server of its own
// (DEMO=1, DEMO_PACE=fast): the operator proposes a meeting to Ada (Berlin), Bruno (New York),
// Chitra (Kolkata, optional) and Room Atlas, signed in the browser; sees the answers arrive and
// the best slot suggested; approves it (revision 2); downloads the .ics and checks it with ical.js;
// then cancels with a reason and sees every participant move to revision 3. Before Approve, the slot
// says what is approved in words: the meeting's title, each attendee by name with the slot's time
// where they are, the ids one click away (decisions-web.md §45).
import { expect, test, type Page } from './support/test';
import { rangeWords } from '../web/lib/time-words';
import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import { snap } from './support/screenshots';
import { openDemoConsole, type DemoConsole } from './support/demo-console';

test.describe.configure({ mode: 'serial' });

let demo: DemoConsole;
let page: Page;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser, { context: { acceptDownloads: true, viewport: { width: 1400, height: 900 } } });
  page = demo.page;
});

test.afterAll(async () => {
  await demo?.close();
});

/** The next Monday (UTC) after today: the demo calendars keep weekdays only. */
function nextMonday(): string {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (d.getUTCDay() !== 1);
  return d.toISOString().slice(0, 10);
}

const participants = () => page.getByTestId('participant');
let threadPath = '';

test('propose to the demo agents and a room, approve the suggested slot, export the .ics', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Scheduling' }).click();
  await expect(page).toHaveURL(/\/scheduling$/);
  const form = page.getByRole('form', { name: 'Propose a meeting' });
  await expect(form.getByLabel('Ada (Berlin) attendance')).toBeVisible({ timeout: 20_000 });
  await form.getByLabel('Title').fill('Planning <b>sync</b>');
  await form.getByLabel('Duration').selectOption('60');
  await form.getByLabel('Window starts (UTC date)').fill(nextMonday());
  await form.getByLabel('Window length (days)').fill('2');
  await form.getByLabel('Chitra (Kolkata) attendance').selectOption('optional');
  await form.getByLabel('Room', { exact: true }).selectOption({ label: 'Room Atlas (Berlin)' });
  await form.getByRole('button', { name: 'Sign and propose' }).click();
  await expect(page).toHaveURL(/\/scheduling\/urn%3Auuid%3A[\w-]+$|\/scheduling\/urn:uuid:[\w-]+$/);
  threadPath = new URL(page.url()).pathname;

  // Agent-written (here operator-written) text is text, never HTML.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Planning <b>sync</b>');
  await expect(participants()).toHaveCount(4);
  // Every answer arrives live, at revision 1.
  for (const p of await participants().all())
    await expect(p).toHaveAttribute('data-revision', '1', { timeout: 30_000 });
  await expect(page.getByTestId('heat-map-row')).toHaveCount(4);
  await expect(page.getByTestId('heat-map-axis')).toHaveCount(await page.getByTestId('heat-map-axis').count());
  const best = page.getByTestId('best-slot');
  await expect(best).toBeVisible();
  const start = (await best.getAttribute('data-start'))!;
  const end = (await best.getAttribute('data-end'))!;
  expect(Date.parse(end) - Date.parse(start)).toBe(3_600_000);
  await expect(page.locator('[data-testid="heat-map"] td[data-state="free"]').first()).toBeVisible();

  // What is approved, in words, before the button: the meeting, who, and when where each of them is.
  await expect(page.getByTestId('approve-what')).toContainText(
    'Approving a time confirms “Planning <b>sync</b>” (60 minutes) with Ada (Berlin), Bruno (New York) and Room Atlas (Berlin), and optionally Chitra (Kolkata): each of them is sent the confirmation',
  );
  const attendees = best.getByTestId('slot-attendee');
  await expect(attendees).toHaveCount(4);
  const [from, to] = [Date.parse(start), Date.parse(end)];
  for (const [who, zone, city] of [
    ['Ada', 'Europe/Berlin', 'Berlin'],
    ['Bruno', 'America/New_York', 'New York'],
    ['Chitra', 'Asia/Kolkata', 'Kolkata'],
    ['Room Atlas', 'Europe/Berlin', 'Berlin'],
  ] as const) {
    const row = attendees.filter({ hasText: who });
    await expect(row.getByTestId('slot-attendee-time')).toHaveText(`${rangeWords(from, to, zone)}, ${city}`);
  }
  expect(await best.innerText()).not.toMatch(/did:key:/);
  // The id is one click away.
  const ada = attendees.filter({ hasText: 'Ada' });
  await ada.getByTestId('name').getByRole('button').click();
  await expect(ada.getByTestId('name-id')).toContainText((await ada.getAttribute('data-did'))!);
  await page.keyboard.press('Escape');
  await snap(page, 'scheduling-thread');

  const approveBest = best.getByRole('button', { name: /^Approve “Planning <b>sync<\/b>” for / });
  await expect(approveBest).toHaveAccessibleName(new RegExp(`for ${rangeWords(from, to, 'UTC').slice(0, 10)}`));
  await approveBest.click();
  await expect(page.getByTestId('thread-status')).toHaveText('CONFIRMED', { timeout: 20_000 });
  await expect(page.getByTestId('thread-revision')).toHaveText('2');
  for (const p of await participants().all())
    await expect(p).toHaveAttribute('data-revision', '2', { timeout: 30_000 });
  await expect(
    participants().filter({ has: page.locator('[data-testid="participant-phase"]', { hasText: 'Confirmed' }) }),
  ).toHaveCount(4);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download .ics' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('planning-b-sync-b.ics');
  const text = await readFile((await download.path())!, 'utf8');
  const event = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!;
  const threadId = decodeURIComponent(threadPath.split('/').pop()!);
  expect(event.getFirstPropertyValue('uid')).toBe(threadId);
  expect(event.getFirstPropertyValue('sequence')).toBe(2);
  const dtstart = event.getFirstPropertyValue('dtstart') as ICAL.Time;
  expect(dtstart.zone?.tzid).toBe('UTC');
  expect(dtstart.toJSDate().toISOString()).toBe(new Date(start).toISOString());
  // §2.4 maps the duration to DURATION; ical.js computes the end from it.
  const parsed = new ICAL.Event(event);
  expect(parsed.endDate.toJSDate().toISOString()).toBe(new Date(end).toISOString());
  expect(parsed.endDate.zone?.tzid).toBe('UTC');
});

test('cancel with a reason: every participant moves to the new revision', async () => {
  await page.goto(threadPath);
  await page.getByLabel('Reason for cancelling').fill('Budget review moved <script>x</script>');
  await page.getByRole('button', { name: 'Cancel the meeting' }).click();
  await expect(page.getByTestId('thread-status')).toHaveText('CANCELLED', { timeout: 20_000 });
  await expect(page.getByTestId('thread-revision')).toHaveText('3');
  await expect(page.getByTestId('cancel-reason')).toContainText('“Budget review moved <script>x</script>”');
  for (const p of await participants().all()) {
    await expect(p).toHaveAttribute('data-revision', '3', { timeout: 30_000 });
    await expect(p).toHaveAttribute('data-phase', 'CANCELLED');
  }
});

/** The next Saturday (UTC): the demo's people keep no weekend hours. */
function nextSaturday(): string {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (d.getUTCDay() !== 6);
  return d.toISOString().slice(0, 10);
}

test('with the form as it opens, on a phone, the heat-map opens on the suggested slot’s day, a day at a time', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto('/scheduling');
    const form = page.getByRole('form', { name: 'Propose a meeting' });
    await expect(form.getByLabel('Ada (Berlin) attendance')).toBeVisible({ timeout: 20_000 });
    await form.getByLabel('Title').fill('Phone sync');
    await form.getByRole('button', { name: 'Sign and propose' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Phone sync');
    // The availability heat-map shows a day at a time here, fitting its card, with the days to step
    // through. Which day it opens on depends on the calendar (the window starts on the next working
    // day), so the journey checks the promise, not an index: once the demo's calendars have answered
    // and a slot is suggested, it opens on the suggested slot's day (decisions-web.md §31).
    const heatMap = page.getByTestId('heat-map');
    await expect(page.getByTestId('participant-phase').filter({ hasText: 'no answer yet' })).toHaveCount(0, {
      timeout: 30_000,
    });
    await expect(page.getByTestId('best-slot')).toBeVisible();
    // Each attendee's time fits the phone's width too (decisions-web.md §45).
    await expect(page.getByTestId('best-slot').getByTestId('slot-attendee')).toHaveCount(
      await page.getByTestId('participant').count(),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await snap(page, 'scheduling-thread-phone');
    const day = heatMap.getByTestId('heat-map-day');
    await expect(day).toContainText(/day \d+ of [2-9]/);
    await expect(heatMap.locator('td[data-suggested="true"]').first()).toBeVisible();
    const fits = () => heatMap.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(await fits()).toBe(true);
    const [, shown, count] = /day (\d+) of (\d+)/.exec((await day.textContent()) ?? '')!.map(Number);
    // One step towards the other days (forward unless it opened on the last), and back.
    const [away, back] = shown! < count! ? ['Next day', 'Previous day'] : ['Previous day', 'Next day'];
    const other = shown! < count! ? shown! + 1 : shown! - 1;
    await heatMap.getByRole('button', { name: away }).click();
    await expect(day).toContainText(`day ${other} of ${count}`);
    expect(await fits()).toBe(true);
    await heatMap.getByRole('button', { name: back }).click();
    await expect(day).toContainText(`day ${shown} of ${count}`);
    await expect(heatMap.locator('td[data-suggested="true"]').first()).toBeVisible();
  } finally {
    await page.setViewportSize({ width: 1400, height: 900 });
  }
});

test('a weekend window has no common slot; an imported calendar shows its busy time, a broken one is explained', async () => {
  await page.goto('/scheduling');
  const form = page.getByRole('form', { name: 'Propose a meeting' });
  await expect(form.getByLabel('Ada (Berlin) attendance')).toBeVisible({ timeout: 20_000 });
  await form.getByLabel('Title').fill('Weekend call');
  await form.getByLabel('Window starts (UTC date)').fill(nextSaturday());
  await form.getByLabel('Window length (days)').fill('1');
  await form.getByLabel('Chitra (Kolkata) attendance').selectOption('skip');
  await form.getByRole('button', { name: 'Sign and propose' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Weekend call');
  await expect(participants()).toHaveCount(2);
  await expect(page.getByTestId('no-common-slot')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('no-common-slot')).toContainText('No common slot');
  await expect(page.getByTestId('best-slot')).toHaveCount(0);

  const day = nextSaturday().replaceAll('-', '');
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    'UID:busy-1',
    `DTSTAMP:${day}T000000Z`,
    `DTSTART:${day}T100000Z`,
    `DTEND:${day}T120000Z`,
    'SUMMARY:Dentist',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  const file = page.getByLabel('Import a calendar (.ics)');
  await file.setInputFiles({ name: 'mine.ics', mimeType: 'text/calendar', buffer: Buffer.from(ics) });
  await expect(page.getByTestId('ics-import-result')).toHaveText('1 busy period in the window, shown on the heat-map.');
  // The operator's own row: 10:00–12:00 UTC is busy, nothing else.
  const mine = page.locator('[data-testid="heat-map-row"][data-did="me"]');
  await expect(mine).toHaveCount(1);
  const marked = await mine.locator('td[data-imported-busy="true"]').count();
  expect(marked).toBeGreaterThan(0);
  expect(marked).toBeLessThan(await mine.locator('td').count());

  await file.setInputFiles({
    name: 'broken.ics',
    mimeType: 'text/calendar',
    buffer: Buffer.from('BEGIN:VCALENDAR\r\nnot a calendar'),
  });
  await expect(page.getByTestId('ics-import-result')).toContainText(
    'OACOP_INVALID_ICAL: This file is not a calendar this console can read',
  );
});
