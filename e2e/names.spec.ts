// Names, not keys (decisions-web.md §29), on a demo server of its own (DEMO=1, seed 7): the
// negotiation list and page, the negotiation's story, the room's audit log and a scheduling
// thread show who by name, never a `did:key:z6Mk…` where a name is known; one click on a name
// shows the full id, and its Copy button puts exactly that id on the clipboard.
// SWITCHBOARD_SCREENSHOTS=1 captures the screens.
import { expect, test, type Page } from './support/test';
import { negotiationIdentity } from '../server/demo/demo-identity';
import { openDemoConsole, type DemoConsole } from './support/demo-console';
import { snap } from './support/screenshots';
import { identifiersInMain } from './support/identifier-scan';

test.describe.configure({ mode: 'serial' });

const SEED = 7;
const RAW_DID = /did:key:z6Mk/;
const BUYER = negotiationIdentity(SEED, 'buyer', 'Northwind Procurement').did;
let demo: DemoConsole;
let page: Page;
let negotiationId = '';

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser, {
    seed: SEED,
    context: { viewport: { width: 1440, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] },
  });
  page = demo.page;
});

test.afterAll(async () => {
  await demo?.close();
});

/** Opens the name's panel, checks it shows `id` whole, copies it and reads the clipboard back. */
async function revealAndCopy(name: ReturnType<Page['getByTestId']>, id: string) {
  await name.getByRole('button').click();
  const panel = name.getByTestId('name-id');
  await expect(panel).toContainText(id);
  await panel.getByRole('button', { name: 'Copy id' }).click();
  await expect(panel.getByRole('button')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
}

test('the negotiation list and page name both parties; the id is one click away', async () => {
  await page.goto('/negotiations');
  const row = page.getByTestId('negotiation-row').filter({ hasText: 'Northwind Procurement' }).first();
  await expect(row).toContainText('Acme Weather API', { timeout: 30_000 });
  await expect(page.getByTestId('negotiation-row').first()).toBeVisible();
  for (const text of await page.getByTestId('negotiation-row').allInnerTexts()) expect(text).not.toMatch(RAW_DID);
  await snap(page, 'names-negotiations');

  await row.click();
  const parties = page.getByTestId('negotiation-parties');
  await expect(parties).toContainText('Northwind Procurement');
  await expect(parties).toContainText('Acme Weather API');
  await expect(parties).toContainText('first party, opened it');
  expect(await parties.innerText()).not.toMatch(RAW_DID);
  negotiationId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await revealAndCopy(parties.getByTestId('name').filter({ hasText: 'Northwind Procurement' }), BUYER);
  await parties.getByTestId('name').filter({ hasText: 'Northwind Procurement' }).getByRole('button').click();
  await snap(page, 'names-negotiation-id');
  await page.keyboard.press('Escape');
});

test('the negotiation’s story and replay use the same names as the live page', async () => {
  await page.goto(`/story/negotiation/${encodeURIComponent(negotiationId)}`);
  const story = page.getByTestId('story');
  await expect(story).toContainText('Northwind Procurement opened a pricing negotiation with Acme Weather API.', {
    timeout: 20_000,
  });
  await expect(story).toContainText('Northwind Procurement offered');
  expect(await story.innerText()).not.toMatch(RAW_DID);
  await page.getByRole('button', { name: 'Replay from the start' }).click();
  await expect(story).toContainText('Northwind Procurement opened a pricing negotiation');
  expect(await story.innerText()).not.toMatch(RAW_DID);
  await snap(page, 'names-story');
});

test('the audit log says who acted by name: the operator reads “You”', async () => {
  const me = await page.evaluate(
    async () => ((await (await fetch('/api/auth/session')).json()) as { did: string }).did,
  );
  await page.goto('/demo');
  const give = page.getByTestId('step-1').getByRole('button', { name: 'Give the Researcher a task' });
  await expect(give).toBeEnabled({ timeout: 20_000 });
  await give.click();
  await expect(page.getByTestId('step-1').getByTestId('story')).toContainText('You gave Researcher the mic', {
    timeout: 20_000,
  });

  await page.goto('/rooms/demo/audit');
  const who = page.getByTestId('audit-who');
  await expect(who.first()).toHaveText('You', { timeout: 20_000 });
  for (const text of await who.allInnerTexts()) expect(text).not.toMatch(RAW_DID);
  await revealAndCopy(who.first().getByTestId('name'), me);
  await snap(page, 'names-audit');
});

test('a scheduling thread names its initiator and participants', async () => {
  await page.goto('/demo');
  await page.getByTestId('step-3').getByRole('button', { name: 'Propose the meeting' }).click();
  await expect(page.getByTestId('step-3').getByTestId('story')).toContainText('You proposed', { timeout: 20_000 });
  await page.getByTestId('step-3').getByRole('link', { name: 'Open the scheduling thread' }).click();
  const participants = page.getByTestId('participant');
  await expect(participants.first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('proposed by You')).toBeVisible();
  await expect(participants.filter({ hasText: 'Ada' })).toHaveCount(1);
  for (const text of await participants.allInnerTexts()) expect(text).not.toMatch(RAW_DID);
  const ada = participants.filter({ hasText: 'Ada' });
  const adaDid = (await ada.getAttribute('data-did'))!;
  await revealAndCopy(ada.getByTestId('name'), adaDid);
  await snap(page, 'names-scheduling');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'names-scheduling-phone');
  await page.goto(`/negotiations/${encodeURIComponent(negotiationId)}`);
  await expect(page.getByTestId('negotiation-parties')).toContainText('Northwind Procurement');
  await snap(page, 'names-negotiation-phone');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('no did:key, UUID, ISO timestamp or duration in the main content of the demo’s screens, nor a did:key in the header', async () => {
  test.setTimeout(240_000);
  // Where each screen is ready: its list or its live status, so what the scan reads is the screen.
  const screens: [string, string, (p: Page) => Promise<void>][] = [
    ['inbox', '/', (p) => expect(p.getByTestId('inbox-status')).toHaveText('Live')],
    ['rooms', '/rooms', (p) => expect(p.getByRole('link', { name: /Demo room/ })).toBeVisible({ timeout: 20_000 })],
    [
      'room',
      '/rooms/demo',
      async (p) => {
        await expect(p.getByTestId('connection-status')).toHaveText('Live', { timeout: 20_000 });
        await expect(p.getByTestId('control-event').first()).toBeVisible({ timeout: 20_000 });
      },
    ],
    ['audit log', '/rooms/demo/audit', (p) => expect(p.getByTestId('audit-entry').first()).toBeVisible()],
    ['activity', '/activity', (p) => expect(p.getByTestId('activity-entry').first()).toBeVisible()],
    [
      'negotiations',
      '/negotiations',
      // The parties' names come from the directory a moment after the rows (decisions-web.md §33).
      async (p) => {
        await expect(p.getByTestId('negotiation-row').first()).toBeVisible();
        await expect(p.getByTestId('negotiation-row').first()).not.toContainText('did:key:', { timeout: 20_000 });
      },
    ],
    [
      'negotiation',
      `/negotiations/${encodeURIComponent(negotiationId)}`,
      (p) => expect(p.getByTestId('history-item').first()).toBeVisible(),
    ],
    [
      'transparency log',
      '/transparency-log',
      (p) => expect(p.getByTestId('chain-verdict')).toContainText('Chain verified', { timeout: 30_000 }),
    ],
    ['threads', '/threads', (p) => expect(p.getByTestId('thread-row').first()).toBeVisible({ timeout: 20_000 })],
    ['scheduling', '/scheduling', (p) => expect(p.getByTestId('scheduling-thread').first()).toBeVisible()],
    [
      'tasks',
      '/tasks',
      // The board once read: its cards, or the words for none.
      (p) => expect(p.getByTestId('task-card').or(p.getByText('No tasks yet.')).first()).toBeVisible(),
    ],
    ['agents', '/fleet', (p) => expect(p.getByTestId('agent-row').first()).toBeVisible()],
    ['directory', '/directory', (p) => expect(p.getByTestId('agent-card').first()).toBeVisible()],
    ['guided demo', '/demo', (p) => expect(p.getByTestId('step-1')).toBeVisible()],
    [
      'story',
      `/story/negotiation/${encodeURIComponent(negotiationId)}`,
      (p) => expect(p.getByTestId('story')).toContainText('Northwind Procurement opened', { timeout: 20_000 }),
    ],
    ['operators', '/settings/operators', (p) => expect(p.getByTestId('operator-row').first()).toBeVisible()],
    ['services', '/settings/services', (p) => expect(p.getByTestId('service-row').first()).toBeVisible()],
    [
      'notification settings',
      '/settings/inbox',
      (p) => expect(p.getByRole('heading', { name: 'Inbox notifications' })).toBeVisible(),
    ],
    // Not /settings/account: its "Your key" is where the operator reads and copies their own did.
  ];
  const found: Record<string, string[]> = {};
  for (const [name, path, ready] of screens) {
    await page.goto(path);
    await ready(page);
    const ids = await identifiersInMain(page);
    if (ids.length) found[name] = ids;
    // The header names the operator too (decisions-web.md §46).
    if (/did:key:/.test(await page.locator('header').first().innerText())) found[`${name}: header`] = ['did:key'];
    // A thread and a scheduling thread are screens of their own: the first of each list.
    if (name === 'threads' || name === 'scheduling') {
      const row =
        name === 'threads'
          ? page.getByTestId('thread-row').first()
          : page.getByTestId('scheduling-thread').first().getByRole('link').first();
      await row.click();
      await expect(page.locator('main h1')).toBeVisible();
      await expect(page.getByTestId(name === 'threads' ? 'message-type' : 'participant').first()).toBeVisible({
        timeout: 20_000,
      });
      const inner = await identifiersInMain(page);
      if (inner.length) found[`${name}: one`] = inner;
    }
  }
  if (Object.keys(found).length) console.log(JSON.stringify(found, null, 2));
  expect(found).toEqual({});
});
