// Operator helpers for journeys: more enrollment links from the operators CLI (against the
// running server's data directory), and reading a downloaded key backup.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type Download, type Page } from '@playwright/test';
import { SERVER_CLI } from '../../server/test-support/compiled-entry';

const run = promisify(execFile);

/** `npm run cli -- operators invite --role <role>`, as an administrator would; returns a link on this server. */
export async function inviteOperator(role: 'facilitator' | 'observer'): Promise<string> {
  const dataDir = process.env.SWITCHBOARD_DATA_DIR;
  const base = process.env.SWITCHBOARD_URL;
  if (!dataDir || !base) throw new Error('global-setup did not set SWITCHBOARD_DATA_DIR / SWITCHBOARD_URL');
  const { stdout, stderr } = await run(process.execPath, [...SERVER_CLI, 'operators', 'invite', '--role', role], {
    env: { ...process.env, DATA_DIR: dataDir },
    timeout: 20_000,
  });
  // The CLI does not know which port the test server took: keep its token, use our address.
  const token = /#token=([A-Za-z0-9_-]+)/.exec(stdout + stderr)?.[1];
  if (!token) throw new Error(`operators invite printed no enrollment link:\n${stdout}\n${stderr}`);
  return new URL(`/enroll#token=${token}`, base).toString();
}

/** The first facilitator's link, printed by the server on its first start. */
export function firstEnrollUrl(): string {
  const url = process.env.SWITCHBOARD_ENROLL_URL;
  if (!url) throw new Error('The server printed no "Enroll the first facilitator: <link>" line on its first start.');
  return url;
}

/** The passphrase journeys give a key's backup when they do not look at the file. */
export const E2E_PASSPHRASE = 'seven lanterns over the quarry';

/**
 * Follows an enrollment link in a browser without a key: creates the key with its backup (the
 * file is downloaded and left alone), enrolls it under `name` when given, opens the console.
 */
export async function enrollNewKey(
  page: Page,
  enrollUrl: string,
  role: 'Facilitator' | 'Observer' = 'Facilitator',
  name?: string,
): Promise<void> {
  await page.goto(enrollUrl);
  await createKey(page);
  if (name) await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Enroll this key' }).click();
  // The console opens by itself and says the role given.
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
  await expect(page.getByText('You are enrolled as')).toHaveText(`You are enrolled as ${role}`);
}

/** On the enrollment page: types the backup passphrase twice and creates the key; resolves with its backup download. */
export async function createKey(page: Page, passphrase = E2E_PASSPHRASE): Promise<Download> {
  await page.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await page.getByLabel('Confirm passphrase').fill(passphrase);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Create key and download backup' }).click();
  const download = await downloading;
  await expect(page.getByText('Backup downloaded')).toBeVisible();
  return download;
}

/**
 * Writes an operator record as consoles before the CryptoKey kept it (raw secret bytes in
 * IndexedDB), for journeys about converting one. The page must already be on the console.
 */
export async function storeLegacyKey(
  page: Page,
  key: { readonly did: string; readonly secretKey: Uint8Array },
): Promise<void> {
  await page.evaluate(
    async ({ did, secretKey }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('switchboard-identity');
        request.onupgradeneeded = () => request.result.createObjectStore('identity');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error('indexedDB.open(switchboard-identity) failed'));
      });
      const tx = db.transaction('identity', 'readwrite');
      tx.objectStore('identity').put(
        { did, secretKey: new Uint8Array(secretKey), createdAt: 1_700_000_000_000 },
        'operator',
      );
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
    },
    { did: key.did, secretKey: Array.from(key.secretKey) },
  );
}
