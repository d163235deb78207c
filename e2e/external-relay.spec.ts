// External relays: a facilitator adds an external relay on the settings screen, watches a DID, sees the
// relay's threads beside the built-in relay's (each with its source badge), opens one and accepts
// an offer, signed in the browser and forwarded to the external relay; a negotiation on the
// external negotiation service shows in /negotiations with its badge and is co-signed from the
// console; when the relay goes down its thread stays on screen, marked down. Two real servers (A
// is the console, B the external relay and negotiation service), each with its own data
// directory and port. The operator's key is read back from the backup made at enrollment, so
// the test can sign the REQUEST the operator would have sent with another client.
import { readFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from './support/test';
import { signEnvelope } from '../shared/agora/sign-envelope';
import type { UnsignedEnvelope } from '../shared/agora/envelope';
import { encodeDidKey } from '../shared/crypto/did-key';
import { keyPairFromSeed } from '../shared/crypto/ed25519';
import { NegotiationParty, type PartyIdentity } from '../agents/negotiation/negotiation-client';
import { negotiationIdentity } from '../server/demo/demo-identity';
import { decryptBackup } from '../web/lib/identity/key-backup';
import { snap } from './support/screenshots';
import { createKey } from './support/operators';
import { startServer, type RunningServer } from './support/server';
import { cosignAgreement } from './support/cosign';

test.describe.configure({ mode: 'serial' });

let a: RunningServer;
let b: RunningServer;
let context: BrowserContext;
let page: Page;
let operator: PartyIdentity;
let relayId = '';
let bDown = false;
const PASSPHRASE = 'seven lanterns over the quarry';
/** What this change looks like, for the reviewer: /tmp/w11-<name>.png. */
const shot = (name: string) => page.screenshot({ path: `/tmp/w11-${name}.png`, fullPage: true });

const party = (byte: number) => {
  const pair = keyPairFromSeed(new Uint8Array(32).fill(byte));
  return { ...pair, did: encodeDidKey(pair.publicKey) };
};
const client = party(41);
const agent = party(42);

function envelope(
  type: 'REQUEST' | 'OFFER',
  from: { did: string; secretKey: Uint8Array },
  to: { did: string },
  thread: string,
  payload: Record<string, unknown>,
) {
  return signEnvelope(
    {
      version: '1.0',
      id: `msg_${type.toLowerCase()}_${thread}`,
      ts: new Date().toISOString(),
      type,
      sender: { id: from.did },
      recipient: { id: to.did },
      payload,
      thread: { id: thread },
    } as unknown as UnsignedEnvelope,
    from.secretKey,
  );
}

const post = (server: RunningServer, body: unknown) =>
  fetch(`${server.url}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test.beforeAll(async ({ browser }) => {
  [a, b] = await Promise.all([startServer({ DEMO: '0' }, { enrollLinkWaitMs: 10_000 }), startServer({ DEMO: '0' })]);
  if (!a.enrollUrl) throw new Error(`A printed no enrollment link:\n${a.log()}`);
  context = await browser.newContext({ baseURL: a.url });
  page = await context.newPage();
  await page.goto(a.enrollUrl);
  const backup = await (await createKey(page, PASSPHRASE)).path();
  const key = await decryptBackup(readFileSync(backup, 'utf8'), PASSPHRASE);
  operator = { did: key.did, secretKey: key.secretKey, name: 'Switchboard operator' };
  await page.getByRole('button', { name: 'Enroll this key' }).click();
  await expect(page.getByText('You are enrolled as')).toHaveText('You are enrolled as Facilitator');
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
});

test.afterAll(async () => {
  await context?.close();
  await Promise.all([a?.stop(), bDown ? undefined : b?.stop()]);
});

test('a facilitator adds an external relay and sees its thread beside the built-in ones', async () => {
  // One thread on each relay; B's is between two agents the console watches for.
  expect(
    (await post(a, envelope('REQUEST', client, agent, 'thread_builtin_1', { request_id: 'r1', intent: 'weather.now' })))
      .status,
  ).toBe(200);
  expect(
    (
      await post(
        b,
        envelope('REQUEST', client, agent, 'thread_partner_1', { request_id: 'r2', intent: 'translation.en_fr' }),
      )
    ).status,
  ).toBe(200);
  expect(
    (
      await post(
        b,
        envelope('OFFER', agent, client, 'thread_partner_1', {
          request_id: 'r2',
          plan: 'Translate',
          price: { amount: 0.01, currency: 'USD' },
        }),
      )
    ).status,
  ).toBe(200);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
  await expect(page).toHaveURL(/\/settings\/services$/);
  await expect(page.getByTestId('service-row')).toHaveCount(2);
  await page.getByLabel('Name').fill('Partner relay');
  await page.getByLabel('Base URL').fill(b.url);
  await page.getByRole('button', { name: 'Add service' }).click();
  const row = page.getByTestId('service-row').filter({ hasText: 'Partner relay' });
  await expect(row.getByTestId('service-status')).toHaveText('Up', { timeout: 15_000 });
  relayId = (
    (await page.request.get('/api/services').then((r) => r.json())) as { services: { id: string; name: string }[] }
  ).services.find((s) => s.name === 'Partner relay')!.id;

  // The watch list: a DID that is not an Ed25519 did:key is refused in words, a good one added.
  const watchField = page.getByLabel('DID to watch');
  await watchField.fill('did:key:z1111');
  await page.getByRole('button', { name: 'Watch', exact: true }).click();
  await expect(page.getByText('This is not an Ed25519 did:key')).toBeVisible();
  await expect(page.getByTestId('watched-row')).toHaveCount(0);
  await watchField.fill(client.did);
  await page.getByRole('button', { name: 'Watch', exact: true }).click();
  await expect(page.getByTestId('watched-did')).toHaveText([client.did]);
  await expect(watchField).toHaveValue('');
  expect(await page.request.get('/api/services/watched').then((r) => r.json())).toEqual({ watched: [client.did] });
  await snap(page, 'settings-services');
  await shot('settings-services');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Threads' }).click();
  const builtin = page.locator('[data-testid="thread-row"][data-thread-id="thread_builtin_1"]');
  const partner = page.locator('[data-testid="thread-row"][data-thread-id="thread_partner_1"]');
  await expect(builtin.getByTestId('source-badge')).toHaveText('built-in');
  await expect(partner.getByTestId('source-badge')).toHaveText('Partner relay', { timeout: 15_000 });
  await expect(partner).toContainText('1 offer');
  await snap(page, 'threads-with-external');
  await shot('threads-with-external');
});

test('the facilitator opens a thread of the external relay and accepts its offer; the relay gets the signed ACCEPT', async () => {
  // The operator's REQUEST (sent with another client, so straight to B) and an agent's OFFER.
  const thread = 'thread_partner_2';
  expect(
    (await post(b, envelope('REQUEST', operator, agent, thread, { request_id: 'r3', intent: 'summarise.text' })))
      .status,
  ).toBe(200);
  expect(
    (
      await post(
        b,
        envelope('OFFER', agent, operator, thread, {
          request_id: 'r3',
          plan: 'Summarise in 5 lines',
          price: { amount: 0.02, currency: 'USD' },
        }),
      )
    ).status,
  ).toBe(200);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Threads' }).click();
  const row = page.locator(`[data-testid="thread-row"][data-thread-id="${thread}"]`);
  await expect(row).toContainText('1 offer', { timeout: 15_000 });
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/threads/${thread}\\?source=${relayId}$`));
  await expect(page.getByRole('heading', { level: 1 }).getByTestId('source-badge')).toHaveText('Partner relay');
  await expect(page.getByTestId('source-status')).toHaveText('Up');
  const messages = page.getByTestId('thread-message');
  await expect(messages).toHaveCount(2);
  await expect(messages.getByTestId('verdict')).toHaveText(['✓ Verified', '✓ Verified']);
  await expect(messages.nth(0)).toContainText('You');

  await messages.nth(1).getByRole('button', { name: 'Accept this offer' }).click();
  await expect(messages).toHaveCount(3, { timeout: 15_000 });
  await expect(page.getByTestId('thread-status')).toHaveText('Active');
  await expect(messages.nth(1)).toContainText('Accepted');
  await expect(messages.nth(2).getByTestId('message-type')).toHaveText('ACCEPT');
  await expect(page.getByRole('button', { name: 'Accept this offer' })).toHaveCount(0);
  await shot('external-thread');
  await snap(page, 'external-thread');

  // B, the external relay, holds the ACCEPT the browser signed with the operator's key.
  const onB = (await (await fetch(`${b.url}/events?since=cur_0&thread=${thread}&timeout=0`)).json()) as {
    events: { type: string; sender: { id: string }; payload: { offer_id?: string } }[];
  };
  expect(onB.events.map((e) => e.type)).toEqual(['REQUEST', 'OFFER', 'ACCEPT']);
  expect(onB.events[2]).toMatchObject({ sender: { id: operator.did }, payload: { offer_id: `msg_offer_${thread}` } });
});

test('a negotiation on the external service shows in /negotiations with its badge, and the operator co-signs it from the console', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
  await page.getByLabel('Name').fill('Partner deals');
  await page.getByLabel('Base URL').fill(b.url);
  await page.getByLabel('Kind').selectOption('negotiation');
  await page.getByRole('button', { name: 'Add service' }).click();
  await expect(
    page.getByTestId('service-row').filter({ hasText: 'Partner deals' }).getByTestId('service-status'),
  ).toHaveText('Up', { timeout: 15_000 });
  const dealsId = (
    (await page.request.get('/api/services').then((r) => r.json())) as { services: { id: string; name: string }[] }
  ).services.find((s) => s.name === 'Partner deals')!.id;

  // The operator's documents go through A's forwarder with the page's session (as the console's
  // own calls do); the seller answers on B directly.
  const random = (n: number) => webcrypto.getRandomValues(new Uint8Array(n));
  const viaA = async (input: string, init?: RequestInit) => {
    const answer = await page.request.fetch(`/api/external/${dealsId}${input}`, {
      method: init?.method ?? 'GET',
      headers: { origin: a.url, 'content-type': 'application/json' },
      ...(init?.body ? { data: init.body as string } : {}),
    });
    return new Response(await answer.text(), {
      status: answer.status(),
      headers: { 'content-type': 'application/json' },
    });
  };
  const buyer = new NegotiationParty(operator, viaA, '', Date.now, random);
  const seller = new NegotiationParty(
    negotiationIdentity(5, 'seller', 'Partner seller'),
    fetch,
    b.url,
    Date.now,
    random,
  );
  const id = await buyer.open(seller.did, { category: 'pricing', mine: 'public', theirs: 'public' });
  await buyer.propose(id, { price_per_call_eur: '0.0030' }, 30 * 60_000);
  await seller.accept(id);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Negotiations' }).click();
  const row = page.getByTestId('negotiation-row').filter({ hasText: 'Partner deals' });
  await expect(row).toContainText('Accepted', { timeout: 15_000 });
  await expect(row.getByTestId('source-badge')).toHaveText('Partner deals');
  await expect(row.getByTestId('unverified-mark')).toHaveCount(0);
  await shot('negotiations-with-external');
  await snap(page, 'negotiations-with-external');

  await row.click();
  await expect(page).toHaveURL(new RegExp(`/negotiations/${id}\\?source=${dealsId}$`));
  await expect(page.getByRole('heading', { level: 1 }).getByTestId('source-badge')).toHaveText('Partner deals');
  await expect(page.getByTestId('history-verdict')).toContainText('Verified in this browser');
  const agreement = page.getByTestId('agreement-panel');
  await expect(agreement.getByTestId('agreement-signature').filter({ hasText: 'you' })).toContainText('Not signed yet');
  await cosignAgreement(agreement);
  await expect(agreement.getByTestId('agreement-complete')).toBeVisible({ timeout: 15_000 });
  await expect(agreement.getByTestId('log-proof')).toContainText('Inclusion proof verified');
  await shot('external-negotiation');

  // B holds the operator's co-signature, made in the browser.
  const onB = await seller.state(id);
  expect(Object.keys(onB.agreement!.signatures).sort()).toEqual([operator.did, seller.did].sort());
});

test('when the external relay goes down, its thread stays on screen, marked down, saying why nothing can be sent', async () => {
  await page.goto(`/threads/thread_partner_2?source=${relayId}`);
  await expect(page.getByTestId('thread-message')).toHaveCount(3);
  await b.stop();
  bDown = true;
  await expect(page.getByTestId('source-status')).toHaveText('Down', { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 }).getByTestId('source-badge')).toContainText('down');
  await expect(page.getByText('Relay down: showing what was fetched before')).toBeVisible();
  await expect(page.getByText(/^Partner relay is down .*: nothing can be sent until it is back/)).toBeVisible();
  await expect(page.getByTestId('thread-message')).toHaveCount(3);
  await shot('external-thread-down');
});
