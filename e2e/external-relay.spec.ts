// Issue 11: a facilitator adds an external relay on the settings screen and sees its thread in
// the thread list beside the built-in relay's, each with its source badge. Two real servers (A
// is the console, B the external relay), each with its own data directory and port.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { signEnvelope } from '../shared/agora/sign-envelope';
import type { UnsignedEnvelope } from '../shared/agora/envelope';
import { encodeDidKey } from '../shared/crypto/did-key';
import { keyPairFromSeed } from '../shared/crypto/ed25519';
import { snap } from './support/screenshots';
import { startServer, type RunningServer } from './support/server';

test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

let a: RunningServer;
let b: RunningServer;
let context: BrowserContext;
let page: Page;

const party = (byte: number) => {
  const pair = keyPairFromSeed(new Uint8Array(32).fill(byte));
  return { ...pair, did: encodeDidKey(pair.publicKey) };
};
const client = party(41);
const agent = party(42);

function envelope(type: 'REQUEST' | 'OFFER', from: ReturnType<typeof party>, to: ReturnType<typeof party>, thread: string, payload: Record<string, unknown>) {
  return signEnvelope(
    { version: '1.0', id: `msg_${type.toLowerCase()}_${thread}`, ts: new Date().toISOString(), type, sender: { id: from.did }, recipient: { id: to.did }, payload, thread: { id: thread } } as unknown as UnsignedEnvelope,
    from.secretKey,
  );
}

const post = (server: RunningServer, body: unknown) => fetch(`${server.url}/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(90_000);
  [a, b] = await Promise.all([startServer({ DEMO: '0' }, { enrollLinkWaitMs: 10_000 }), startServer({ DEMO: '0' })]);
  if (!a.enrollUrl) throw new Error(`A printed no enrollment link:\n${a.log()}`);
  context = await browser.newContext({ baseURL: a.url });
  page = await context.newPage();
  await page.goto(a.enrollUrl);
  await page.getByRole('button', { name: 'Enroll this key' }).click();
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page.getByRole('heading', { name: 'Switchboard console' })).toBeVisible();
});

test.afterAll(async () => {
  await context?.close();
  await Promise.all([a?.stop(), b?.stop()]);
});

test('a facilitator adds an external relay and sees its thread beside the built-in ones', async () => {
  // One thread on each relay; B's is between two agents the console watches for.
  expect((await post(a, envelope('REQUEST', client, agent, 'thread_builtin_1', { request_id: 'r1', intent: 'weather.now' }))).status).toBe(200);
  expect((await post(b, envelope('REQUEST', client, agent, 'thread_partner_1', { request_id: 'r2', intent: 'translation.en_fr' }))).status).toBe(200);
  expect((await post(b, envelope('OFFER', agent, client, 'thread_partner_1', { request_id: 'r2', plan: 'Translate', price: { amount: 0.01, currency: 'USD' } }))).status).toBe(200);
  const watched = await page.request.post('/api/services/watched', { data: { did: client.did }, headers: { origin: a.url } });
  expect(watched.status()).toBe(200);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
  await expect(page).toHaveURL(/\/settings\/services$/);
  await expect(page.getByTestId('service-row')).toHaveCount(2);
  await page.getByLabel('Name').fill('Partner relay');
  await page.getByLabel('Base URL').fill(b.url);
  await page.getByRole('button', { name: 'Add service' }).click();
  const row = page.getByTestId('service-row').filter({ hasText: 'Partner relay' });
  await expect(row.getByTestId('service-status')).toHaveText('Up', { timeout: 15_000 });
  await snap(page, 'settings-services');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Threads' }).click();
  const builtin = page.getByTestId('thread-row').filter({ hasText: 'thread_builtin_1' });
  const partner = page.getByTestId('thread-row').filter({ hasText: 'thread_partner_1' });
  await expect(builtin.getByTestId('source-badge')).toHaveText('built-in');
  await expect(partner.getByTestId('source-badge')).toHaveText('Partner relay', { timeout: 15_000 });
  await expect(partner).toContainText('1 offer');
  await snap(page, 'threads-with-external');
});
