// The Agora console, end to end, against a server of its own with the demo on (DEMO=1,
// DEMO_PACE=fast): the operator finds the translation agent in the directory by capability,
// sends it a REQUEST signed in the browser with their own key, sees the OFFER arrive live,
// accepts it, and sees the RESULT, every envelope with a verified badge computed in the
// browser. A server that changes an envelope (simulated by rewriting the thread's answer on
// its way to the browser) never gets a verified badge, nor an Accept button; agent-written
// HTML is shown as text.
import { expect, test, type Page, expectConsoleErrors } from './support/test';
import { signEnvelope } from '../shared/agora/sign-envelope';
import type { UnsignedEnvelope } from '../shared/agora/envelope';
import { encodeDidKey } from '../shared/crypto/did-key';
import { keyPairFromSeed } from '../shared/crypto/ed25519';
import { snap } from './support/screenshots';
import { openDemoConsole, type DemoConsole } from './support/demo-console';

test.describe.configure({ mode: 'serial' });

const HOSTILE = 'Hello <b>bold</b><img src=x onerror="window.__pwned=1">';
let demo: DemoConsole;
let page: Page;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser);
  page = demo.page;
});

test.afterAll(async () => {
  await demo?.close();
});

/** Opens the directory from the navigation and sends a REQUEST from an agent's card. */
async function sendRequest(agent: string, tool: string, fields: Record<string, string>): Promise<string> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Directory' }).click();
  await expect(page).toHaveURL(/\/directory$/);
  await page.getByRole('button', { name: `Send a request for ${tool} to ${agent}` }).click();
  const dialog = page.getByRole('dialog', { name: `Send a request to ${agent}` });
  for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label, { exact: true }).fill(value);
  if (tool === 'translation.en_zh') await snap(page, 'agora-request', { fullPage: false });
  await dialog.getByRole('button', { name: 'Sign and send' }).click();
  await expect(page).toHaveURL(/\/threads\/thread_[\w-]+$/);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
}

const messages = () => page.getByTestId('thread-message');
const ofType = (type: string) => page.locator(`[data-testid="thread-message"][data-type="${type}"]`);

/** The demo's directory: three Agora services, and OACoP's three calendar agents, a room and a scanner. */
const DEMO_DIRECTORY = 8;

test('the operator finds the translation agent by capability, sends a request, accepts the offer and sees the result verified', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Directory' }).click();
  await expect(page.getByTestId('agent-card')).toHaveCount(DEMO_DIRECTORY, { timeout: 20_000 });
  await page.getByLabel('Search by capability or intent').fill('chinese');
  await expect(page.getByTestId('directory-count')).toHaveText(`1 of ${DEMO_DIRECTORY} agents match`);
  const card = page.getByRole('article', { name: 'Demo Translator' });
  await expect(card.getByTestId('agent-presence')).toHaveText('Online');
  await expect(card.getByTestId('agent-pricing')).toHaveText('0.00001 USD per character');
  // The key by its fingerprint, the did:key in its title and behind Copy (decisions-web.md §33).
  await expect(card.getByTestId('agent-did')).toHaveText(/^Its key: [0-9a-f]{4}( [0-9a-f]{4}){3}$/);
  await expect(card.getByTestId('agent-did')).toHaveAttribute('title', /^did:key:z6Mk/);
  await expect(card.getByTestId('agent-tool')).toHaveCount(3);
  await expect(card.getByTestId('agent-tool').filter({ hasText: 'translation.en_zh' })).toContainText('SLA 2 seconds');
  await snap(page, 'agora-directory');

  const threadId = await sendRequest('Demo Translator', 'translation.en_zh', {
    text: HOSTILE,
    'Title (optional)': 'Greet <i>them</i>',
  });
  await expect(page.getByTestId('thread-status')).toHaveText(/Pending|Active|Completed/);
  await expect(page.getByTestId('thread-addressed-to')).toContainText('Demo Translator');

  // The agent's OFFER arrives through the long-poll, verified in this browser.
  const offer = ofType('OFFER');
  await expect(offer).toHaveCount(1, { timeout: 20_000 });
  await expect(offer.getByTestId('verdict')).toHaveText('✓ Verified');
  await expect(offer).toContainText('Demo Translator');
  await expect(offer.getByTestId('fact-price')).toHaveText('0.005 USD');
  await offer.getByRole('button', { name: 'Accept this offer' }).click();

  await expect(page.getByTestId('thread-status')).toHaveText('Completed', { timeout: 20_000 });
  await expect
    .poll(() => messages().getByTestId('message-type').allTextContents())
    .toEqual(['REQUEST', 'OFFER', 'ACCEPT', 'RESULT']);
  await expect(messages().getByTestId('verdict')).toHaveText(['✓ Verified', '✓ Verified', '✓ Verified', '✓ Verified']);
  await expect(offer).toContainText('Accepted');
  await expect(ofType('ACCEPT')).toContainText('You');
  const result = ofType('RESULT');
  await expect(result.getByTestId('fact-status')).toHaveText('success');

  // Agent-written (and operator-written) HTML is text: shown literally, never parsed.
  await expect(result.getByTestId('fact-output')).toContainText(`[zh] ${HOSTILE}`.replace(/"/g, '\\"'));
  await expect(ofType('REQUEST').getByTestId('fact-title')).toHaveText('Greet <i>them</i>');
  await expect(page.locator('main b, main img[src="x"], main i')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();

  // The raw envelope, as text.
  await result.getByText('Raw envelope').click();
  const raw = result.getByTestId('raw-envelope');
  await expect(raw).toContainText('"type": "RESULT"');
  await expect(raw).toContainText(`"id": "${threadId}"`);
  await expect(raw).toContainText('"sig": "');
  await snap(page, 'agora-thread');

  // Its story, in words, and played back from the stored thread at 10×.
  await page.getByRole('link', { name: 'Story & replay' }).click();
  const story = page.getByTestId('story');
  await expect(story).toContainText('You asked Demo Translator for “Greet <i>them</i>”.');
  await expect(story).toContainText('You accepted Demo Translator’s offer.');
  await expect(story).toContainText('Demo Translator delivered the result (success).');
  await page.getByRole('button', { name: 'Replay from the start' }).click();
  await page.getByLabel('Speed').selectOption('10');
  await expect(page.getByTestId('replay-progress')).toHaveText('4 of 4 steps', { timeout: 20_000 });
  await page.goBack();
  await page.goBack();
  await expect(page.getByTestId('thread-status')).toHaveText('Completed');

  // The thread is listed, completed, with this operator as its client.
  await page.getByRole('link', { name: '← All threads' }).click();
  await page.getByLabel('Only threads I am part of').check();
  const row = page.locator(`[data-testid="thread-row"][data-thread-id="${threadId}"]`);
  await expect(row).toContainText('Completed');
  await expect(row.getByTestId('thread-parties')).toContainText('You → Demo Translator');
  await page.getByLabel('Only threads I am part of').uncheck();
  await snap(page, 'agora-threads');
});

test('an envelope changed on its way to the browser is never shown as verified, and its offer cannot be accepted', async () => {
  // A server (or anything between) that rewrites what agents signed: the OFFER's price.
  await page.route('**/api/agora/threads/thread_*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as {
      events: { envelope: { type: string; payload: { price?: { amount: number } } } }[];
    };
    for (const event of body.events)
      if (event.envelope.type === 'OFFER' && event.envelope.payload.price) event.envelope.payload.price.amount += 1234;
    await route.fulfill({ response, json: body });
  });
  await sendRequest('Demo Weather', 'weather.current', { city: 'Lisbon' });
  const offer = ofType('OFFER');
  await expect(offer).toHaveCount(1, { timeout: 20_000 });
  await expect(offer.getByTestId('verdict')).toHaveText(
    '✗ Signature does not verify: the signature does not verify against sender.id',
  );
  await expect(offer.getByTestId('verdict')).toHaveAttribute('data-verdict', 'failed');
  await expect(page.getByRole('alert').filter({ hasText: '1 message does not verify' })).toBeVisible();
  await expect(offer.getByRole('button', { name: 'Accept this offer' })).toHaveCount(0);
  // The untouched REQUEST beside it still verifies.
  await expect(ofType('REQUEST').getByTestId('verdict')).toHaveText('✓ Verified');
  await expect(page.getByText('✓ Verified')).toHaveCount(1);
  await snap(page, 'agora-thread-tampered');

  // Read as the relay stored it, the same offer verifies and may be accepted.
  await page.unroute('**/api/agora/threads/thread_*');
  await page.reload();
  await expect(offer.getByTestId('verdict')).toHaveText('✓ Verified');
  await offer.getByRole('button', { name: 'Accept this offer' }).click();
  await expect(page.getByTestId('thread-status')).toHaveText('Completed', { timeout: 20_000 });
});

test('the directory filters by presence and answers a tools_query for an agent', async () => {
  // g t and g d reach both screens from the keyboard.
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await expect(page).toHaveURL(/\/threads$/);
  await page.keyboard.press('g');
  await page.keyboard.press('d');
  await expect(page).toHaveURL(/\/directory$/);
  await expect(page.getByTestId('agent-card')).toHaveCount(DEMO_DIRECTORY);
  await page.getByLabel('Presence').selectOption('offline');
  await expect(page.getByText('No agent matches')).toBeVisible();
  await page.getByLabel('Presence').selectOption('online');
  await page.getByLabel('Search by capability or intent').fill('book room');
  const card = page.getByRole('article', { name: 'Demo Room Booker' });
  await expect(card).toBeVisible();
  await expect(page.getByRole('article', { name: 'Demo Translator' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Ask which tools it offers' }).click();
  await expect(card.getByTestId('tools-response')).toHaveText(
    'tools_response: 1 task tools (rooms.book), 0 information tools (none).',
  );
});

/** A signed directory.register REQUEST for a made-up agent, as any Agora agent would post it. */
function registration(n: number): unknown {
  const { secretKey, publicKey } = keyPairFromSeed(new Uint8Array(32).fill(n));
  const did = encodeDidKey(publicKey);
  const unsigned = {
    version: '1.0',
    id: `msg_e2e_register_${n}`,
    ts: new Date().toISOString(),
    type: 'REQUEST',
    sender: { id: did, name: `Load agent ${n}` },
    payload: {
      request_id: `req_e2e_register_${n}`,
      intent: 'directory.register',
      params: {
        manifest: {
          id: `cap_load_${n}`,
          name: `Load agent ${n}`,
          description: `Registered by the journey to make the directory long (${n}).`,
          intents: [{ id: `load.task_${n}`, name: `Task ${n}`, description: `Does chore number ${n}` }],
          pricing: { model: 'free' },
          auth: { methods: ['ed25519'], public_key: did.slice('did:key:'.length) },
        },
      },
    },
    thread: { id: `directory_e2e_${n}` },
  } as unknown as UnsignedEnvelope;
  return signEnvelope(unsigned, secretKey);
}

test('a long directory renders only the cards in view, and search still finds any agent', async () => {
  for (let n = 100; n < 160; n++) {
    const res = await page.request.post('/agents', { data: registration(n) });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await page.goto('/directory');
  await expect(page.getByTestId('directory-count')).toHaveText(`${DEMO_DIRECTORY + 60} agents`);
  await expect(page.getByTestId('directory-list')).toHaveAttribute('data-virtualized', 'true');
  const rendered = await page.getByTestId('agent-card').count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(20);
  await page.getByLabel('Search by capability or intent').fill('chore number 157');
  await expect(page.getByTestId('agent-card')).toHaveCount(1);
  await expect(page.getByRole('article', { name: 'Load agent 157' })).toContainText('Free');
  await expect(page.getByTestId('directory-list')).not.toHaveAttribute('data-virtualized', 'true');
});

test('a refusal by the relay is said in words with its code, and the request stays open to fix', async () => {
  expectConsoleErrors(/status of 400 .*\/events\)$/);
  // A browser whose clock is 10 minutes slow signs a ts the relay refuses (±5 min window).
  const slow = await demo.context.newPage();
  await slow.clock.setFixedTime(new Date(Date.now() - 10 * 60_000));
  await slow.goto('/directory');
  await slow.getByLabel('Search by capability or intent').fill('weather');
  await slow.getByRole('button', { name: 'Send a request for weather.current to Demo Weather' }).click();
  const dialog = slow.getByRole('dialog', { name: 'Send a request to Demo Weather' });
  await dialog.getByLabel('city', { exact: true }).fill('Porto');
  await dialog.getByRole('button', { name: 'Sign and send' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The relay refused the request');
  await expect(dialog.getByRole('alert')).toContainText(
    'more than 5 minutes behind the relay’s clock. Check this computer’s clock. (TIMEOUT, timestamp_too_old)',
  );
  await expect(slow).toHaveURL(/\/directory$/);
  await slow.close();
});
