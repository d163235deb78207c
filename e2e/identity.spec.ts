// Operator identity end to end: a key made in the browser together with its encrypted backup
// file, enrolled with the link the server printed, kept across reloads, signed in with one
// click, and restored in a browser that never saw it; a key from an older console, with no
// backup, converted and replaced. The journeys share one browser profile, in order.
import { readFileSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page, expectConsoleErrors } from './support/test';
import { decodeBase64url } from '../shared/crypto/base64url';
import { keyPairFromSeed } from '../shared/crypto/ed25519';
import { encodeDidKey } from '../shared/crypto/did-key';
import { createKey, firstEnrollUrl, inviteOperator, storeLegacyKey } from './support/operators';
import { snap } from './support/screenshots';

test.describe.configure({ mode: 'serial' });

const PASSPHRASE = 'seven lanterns over the quarry';
const SHORT_DID = /^did:key:z6Mk…[1-9A-HJ-NP-Za-km-z]{6}$/;

let context: BrowserContext;
let page: Page;
let did = '';
let backupPath = '';

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
});

test.afterAll(() => context.close());

const accountButton = (p: Page) => p.getByRole('button', { name: /^Account: / });

// eslint-disable-next-line no-empty-pattern -- Playwright passes fixtures first; this test uses the shared page.
test('first run: the printed link makes a key with its encrypted backup, then enrolls it as facilitator', async ({}, testInfo) => {
  await page.goto(firstEnrollUrl());
  await expect(page.getByRole('heading', { name: 'Enroll as an operator' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Create your key and its backup' })).toBeVisible();
  // Nothing to enroll before the key exists.
  await expect(page.getByRole('button', { name: 'Enroll this key' })).toHaveCount(0);

  // The strength hint speaks up as the passphrase is typed.
  await page.getByLabel('Passphrase', { exact: true }).fill('short');
  await expect(page.getByText(/Too short\. Use at least 10 characters/)).toBeVisible();
  await page.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
  await page.getByLabel('Confirm passphrase').fill(PASSPHRASE);
  await expect(page.getByText(/^Strong\./)).toBeVisible();
  await snap(page, 'identity-enroll');

  const download = await createKey(page, PASSPHRASE);
  expect(download.suggestedFilename()).toMatch(/^switchboard-key-[1-9A-HJ-NP-Za-km-z]{8}-\d{4}-\d{2}-\d{2}\.json$/);
  backupPath = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(backupPath);

  await expect(page.getByText('A new Ed25519 key was created.', { exact: false })).toBeVisible();
  did = (await page.getByTestId('operator-did').textContent()) ?? '';
  expect(did).toMatch(/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+$/);
  await expect(page.getByText(/^Fingerprint [0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4}$/)).toBeVisible();

  const file = JSON.parse(readFileSync(backupPath, 'utf8')) as Record<string, unknown>;
  expect(Object.keys(file).sort()).toEqual(['cipher', 'ciphertext', 'did', 'format', 'kdf', 'version']);
  expect(file).toMatchObject({
    format: 'switchboard-key-backup',
    version: 1,
    did,
    kdf: { name: 'PBKDF2', hash: 'SHA-256' },
    cipher: { name: 'AES-GCM' },
  });
  const kdf = file.kdf as { iterations: number; salt: string };
  expect(kdf.iterations).toBeGreaterThanOrEqual(600_000);
  expect(decodeBase64url(kdf.salt)).toHaveLength(16);
  expect(decodeBase64url((file.cipher as { iv: string }).iv)).toHaveLength(12);
  expect(decodeBase64url(file.ciphertext as string)).toHaveLength(32 + 16);

  // While the page is open, the same file can be saved again (it lives in memory only).
  const again = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download again' }).click();
  expect(readFileSync(await (await again).path(), 'utf8')).toBe(readFileSync(backupPath, 'utf8'));
  await snap(page, 'identity-key-created');

  await page.getByRole('button', { name: 'Enroll this key' }).click();
  await expect(page.getByText('You are enrolled as')).toHaveText('You are enrolled as Facilitator');
  await snap(page, 'identity-enrolled');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
  await expect(accountButton(page)).toHaveAccessibleName(/facilitator$/);
  await expect(accountButton(page)).toContainText(did.slice(-6));
  // Backed up already: no reminder.
  await expect(page.getByText('Your key is not backed up yet.')).toHaveCount(0);
  await snap(page, 'identity-header');
  await accountButton(page).click();
  await expect(page.getByText('Signed in as')).toBeVisible();
  await expect(page.getByTestId('key-backup-status')).toHaveText(
    /^Key backup made \w{3} \d{1,2} \w{3}( \d{4})?, \d{2}:\d{2} \S+\. The key itself stays locked in this browser\.$/,
  );
  await snap(page, 'identity-account-menu');
  await page.keyboard.press('Escape');
  await expect(page.getByText('Signed in as')).toHaveCount(0);
  await expect(accountButton(page)).toBeFocused();
});

test('a reload keeps the session; after signing out, one click signs in with the stored key', async () => {
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
  await expect(accountButton(page)).toContainText(did.slice(-6));

  await accountButton(page).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Switchboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toHaveCount(0);
  // The cookie is gone too, not only this tab's memory of it.
  await page.reload();
  const signIn = page.getByRole('button', { name: /^Sign in as did:key:z6Mk…/ });
  await expect(signIn).toBeVisible();
  expect((await signIn.textContent())?.replace('Sign in as ', '')).toMatch(SHORT_DID);
  await snap(page, 'identity-sign-in-with-key');

  await signIn.click();
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
  await expect(accountButton(page)).toHaveAccessibleName(/facilitator$/);
});

test('a fresh browser restores the key from the backup file and signs in', async ({ browser }) => {
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  try {
    await other.goto('/');
    await expect(other.getByRole('heading', { name: 'Sign in to Switchboard' })).toBeVisible();
    await expect(other.getByText('This browser has no operator key yet.')).toBeVisible();
    await snap(other, 'identity-sign-in-no-key');

    await other.getByRole('button', { name: 'Restore from backup' }).click();
    const dialog = other.getByRole('dialog', { name: 'Restore from backup' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Backup file').setInputFiles(backupPath);
    await expect(
      dialog.getByText(`Key in this file: ${did.slice(0, 12)}…${did.slice(-6)}`, { exact: false }),
    ).toBeVisible();

    await dialog.getByLabel('Passphrase').fill('not the passphrase');
    await dialog.getByRole('button', { name: 'Restore and sign in' }).click();
    await expect(dialog.getByRole('alert')).toContainText('The passphrase is wrong, or the backup file was changed.');
    await snap(other, 'identity-restore-wrong-passphrase', { fullPage: false });

    await dialog.getByLabel('Passphrase').fill(PASSPHRASE);
    await dialog.getByRole('button', { name: 'Restore and sign in' }).click();
    await expect(other.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
    await expect(accountButton(other)).toContainText(did.slice(-6));
    await expect(accountButton(other)).toHaveAccessibleName(/facilitator$/);
  } finally {
    await fresh.close();
  }
});

test('the used enrollment link says so in words, with the command for a new one', async ({ browser }) => {
  expectConsoleErrors(/status of 401 .*\/api\/auth\/enroll\)$/, /status of 403 .*\/api\/auth\/login\)$/);
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  try {
    await other.goto(firstEnrollUrl());
    await createKey(other);
    await other.getByRole('button', { name: 'Enroll this key' }).click();
    const alert = other.getByRole('alert');
    await expect(alert).toContainText('This enrollment link was already used');
    await expect(alert).toContainText('Each link enrolls one key, and this one has.');
    await expect(alert).toContainText('npm run cli -- operators invite --role facilitator');
    await snap(other, 'identity-enroll-used-link');

    // That browser now holds a key the server does not know: signing in says exactly that.
    await other.goto('/');
    await other.getByRole('button', { name: /^Sign in as / }).click();
    await expect(other.getByRole('alert')).toContainText('This key is not enrolled on this server');
    await snap(other, 'identity-sign-in-not-enrolled');
  } finally {
    await fresh.close();
  }
});

test('a key from an older console (raw bytes, no backup) is converted, the console says it has no backup, and a new link replaces it with a backed-up key', async ({
  browser,
}) => {
  const legacy = keyPairFromSeed(new Uint8Array(32).fill(23));
  const legacyDid = encodeDidKey(legacy.publicKey);
  const fresh = await browser.newContext({ acceptDownloads: true });
  const other = await fresh.newPage();
  try {
    await other.goto('/');
    await expect(other.getByText('This browser has no operator key yet.')).toBeVisible();
    await storeLegacyKey(other, { did: legacyDid, secretKey: legacy.secretKey });

    // The link finds the converted key; it has no backup, and it says so.
    await other.goto(await inviteOperator('observer'));
    await expect(other.getByRole('heading', { name: 'Use the key this browser already holds' })).toBeVisible();
    await expect(other.getByTestId('operator-did')).toHaveText(legacyDid);
    await expect(other.getByText('This key has no backup')).toBeVisible();
    await snap(other, 'identity-enroll-no-backup');
    await other.getByRole('button', { name: 'Enroll this key' }).click();
    await expect(other.getByText('You are enrolled as')).toHaveText('You are enrolled as Observer');
    await expect(accountButton(other)).toHaveAccessibleName(/observer$/);
    const reminder = other.getByText('Your key has no backup.');
    await expect(reminder).toBeVisible();
    await expect(other.getByRole('status').filter({ hasText: 'Your key has no backup.' })).toContainText(
      'it can no longer be exported',
    );
    await snap(other, 'identity-backup-reminder');
    await other.reload();
    await expect(reminder).toBeVisible();

    // A new link: the old key is replaced by a new one made with its backup.
    await other.goto(await inviteOperator('observer'));
    await other.getByRole('button', { name: 'Create a new key with a backup instead' }).click();
    await other.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
    await other.getByLabel('Confirm passphrase').fill(PASSPHRASE);
    const downloading = other.waitForEvent('download');
    await other.getByRole('button', { name: 'Replace key and download backup' }).click();
    const backup = JSON.parse(readFileSync(await (await downloading).path(), 'utf8')) as { did: string };
    await expect(other.getByText('A new Ed25519 key was created.', { exact: false })).toBeVisible();
    await expect(other.getByTestId('operator-did')).toHaveText(backup.did);
    expect(backup.did).not.toBe(legacyDid);
    await other.getByRole('button', { name: 'Enroll this key' }).click();
    await expect(other.getByText('You are enrolled as')).toHaveText('You are enrolled as Observer');
    await expect(accountButton(other)).toContainText(backup.did.slice(-6));
    await expect(other.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
    await expect(reminder).toHaveCount(0);
  } finally {
    await fresh.close();
  }
});
