// Webhooks in the settings: a facilitator adds an endpoint (a real receiver on this machine),
// copies its secret shown once, sends tests and watches the delivery log move from pending (the
// receiver failing) to delivered, then deletes it after a confirmation.
import { expect, test, type BrowserContext, type Page } from './support/test';
import { verifyWebhookSignature } from '../server/webhooks/signature';
import { startWebhookReceiver, type WebhookReceiver } from '../server/test-support/webhook-receiver';
import { enrollNewKey } from './support/operators';
import { snap } from './support/screenshots';
import { startServer, type RunningServer } from './support/server';

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let receiver: WebhookReceiver;
let context: BrowserContext;
let page: Page;
let failing = false;

test.beforeAll(async ({ browser }) => {
  receiver = await startWebhookReceiver(() => (failing ? 503 : 200));
  // The receiver is on loopback: allowed here as an administrator would for a local setup.
  server = await startServer(
    { DEMO: '0', ALLOW_PRIVATE_WEBHOOK_URLS: '1', WEBHOOK_RETRY_DELAYS_MS: '1500,1500,1500' },
    { enrollLinkWaitMs: 10_000 },
  );
  if (!server.enrollUrl) throw new Error(`No enrollment link:\n${server.log()}`);
  context = await browser.newContext({ baseURL: server.url });
  page = await context.newPage();
  await enrollNewKey(page, server.enrollUrl);
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
  await receiver?.close();
});

test('a facilitator adds a webhook, keeps its secret, sees deliveries retried and delivered, and deletes it', async () => {
  await page.goto('/settings/services');
  const section = page.getByRole('region', { name: 'Webhooks' });
  await expect(section.getByText('No webhooks yet.')).toBeVisible();

  const form = section.getByRole('form', { name: 'Add a webhook' });
  await form.getByLabel('Endpoint URL').fill(receiver.url);
  await form.getByLabel('Services down').check();
  await form.getByLabel('Co-signatures').uncheck();
  await form.getByRole('button', { name: 'Add webhook' }).click();

  const secret = (await section.getByTestId('webhook-secret').textContent())!;
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  await expect(section.getByText('it is shown only this once')).toBeVisible();
  const endpoint = section.getByTestId('webhook-endpoint');
  await expect(endpoint).toContainText(receiver.url);
  await expect(endpoint).toContainText('Reviews, Services down');
  await snap(page, 'settings-webhook-secret');
  await section.getByRole('button', { name: 'I have copied it' }).click();
  await expect(section.getByTestId('webhook-secret')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('webhook-endpoint')).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  // A test event, delivered and signed with the secret the console showed.
  await page.getByRole('button', { name: 'Send test' }).click();
  const rows = page.getByTestId('delivery-row');
  await expect(rows.first().getByTestId('delivery-state')).toHaveText('Delivered(200)');
  expect(receiver.received).toHaveLength(1);
  const [first] = receiver.received;
  const verdict = verifyWebhookSignature(
    secret,
    String(first!.headers['switchboard-signature']),
    String(first!.headers['switchboard-delivery']),
    first!.body,
    Math.floor(Date.now() / 1000),
  );
  expect(verdict.ok).toBe(true);

  // The receiver fails: the delivery waits for its retry, with the status and the next try shown.
  failing = true;
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByTestId('delivery-state')).toHaveText('Pending(503)');
  await expect(rows.first()).toContainText('answered 503');
  await snap(page, 'settings-webhooks');
  failing = false;
  await expect(rows.first().getByTestId('delivery-state')).toHaveText('Delivered(200)');
  const retried = receiver.received.slice(1).map((r) => r.deliveryId);
  expect(new Set(retried).size).toBe(1);
  expect(retried.length).toBeGreaterThanOrEqual(2);

  await page.getByRole('button', { name: `Delete webhook ${receiver.url}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
  await expect(dialog).toBeVisible();
  await snap(page, 'settings-webhook-delete', { fullPage: false });
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(page.getByTestId('webhook-endpoint')).toHaveCount(1);
  await page.getByRole('button', { name: `Delete webhook ${receiver.url}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
  await expect(page.getByText('No webhooks yet.')).toBeVisible();
});
