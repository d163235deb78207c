// Key custody: a script running in the console's origin (the path of the finding: a hostile
// page served from the same origin) reads every IndexedDB store and finds nothing that signs as
// the operator. The key is a non-extractable WebCrypto CryptoKey: usable in place, never readable.
import { expect, test } from './support/test';
import { decodeDidKey, encodeDidKey } from '../shared/crypto/did-key';
import { keyPairFromSeed } from '../shared/crypto/ed25519';
import { scanIndexedDbForSecret } from './support/key-scan';
import { enrollNewKey, inviteOperator, storeLegacyKey } from './support/operators';
import { snap } from './support/screenshots';

test('after enrolling, no IndexedDB value of the origin signs for the operator, and the stored key does not export', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await enrollNewKey(page, await inviteOperator('observer'), 'Observer');
    await page.getByRole('button', { name: /^Account: / }).click();
    const did =
      (await page
        .getByText(/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{40,}$/)
        .first()
        .textContent()) ?? '';
    expect(did).toMatch(/^did:key:z6Mk/);

    const report = await page.evaluate(scanIndexedDbForSecret, Array.from(decodeDidKey(did)));
    expect(report.databases).toContain('switchboard-identity');
    expect(report.values).toBeGreaterThan(0);
    expect(report.secretsFound, 'a value in IndexedDB signs for the operator').toEqual([]);
    expect(report.privateKeys.length, 'the operator key is kept as a CryptoKey').toBeGreaterThan(0);
    for (const key of report.privateKeys) {
      expect(key.extractable, key.path).toBe(false);
      expect(key.exported, key.path).toEqual([]);
    }
  } finally {
    await context.close();
  }
});

test('a key stored as raw bytes by an older console is converted on load, and the bytes are gone', async ({
  browser,
}) => {
  const legacy = keyPairFromSeed(new Uint8Array(32).fill(41));
  const did = encodeDidKey(legacy.publicKey);
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto('/');
    await expect(page.getByText('This browser has no operator key yet.')).toBeVisible();
    await storeLegacyKey(page, { did, secretKey: legacy.secretKey });
    // Before any load, the raw secret is there for the taking: the scan sees it.
    expect((await page.evaluate(scanIndexedDbForSecret, Array.from(legacy.publicKey))).secretsFound).toHaveLength(1);

    await page.reload();
    await expect(page.getByRole('button', { name: `Sign in as ${did.slice(0, 12)}…${did.slice(-6)}` })).toBeVisible();
    const report = await page.evaluate(scanIndexedDbForSecret, Array.from(legacy.publicKey));
    expect(report.secretsFound).toEqual([]);
    expect(report.privateKeys).toEqual([
      { path: 'switchboard-identity/identity[operator].privateKey', extractable: false, exported: [] },
    ]);
  } finally {
    await context.close();
  }
});

test('a browser without Ed25519 in WebCrypto is told it cannot keep the key safely, and no key is made', async ({
  browser,
}) => {
  const context = await browser.newContext();
  // What a browser without Ed25519 in WebCrypto answers: NotSupportedError for that algorithm.
  await context.addInitScript(() => {
    const subtle = crypto.subtle;
    // The script also runs in frames without WebCrypto (about:blank before the first page).
    if (subtle === undefined) return;
    const isEd25519 = (algorithm: AlgorithmIdentifier) =>
      (typeof algorithm === 'string' ? algorithm : algorithm.name).toLowerCase() === 'ed25519';
    const refuse = () => Promise.reject(new DOMException('Unrecognized algorithm name', 'NotSupportedError'));
    const generateKey = subtle.generateKey.bind(subtle) as (
      algorithm: AlgorithmIdentifier,
      ...rest: unknown[]
    ) => Promise<unknown>;
    const importKey = subtle.importKey.bind(subtle) as (
      format: unknown,
      data: unknown,
      algorithm: AlgorithmIdentifier,
      ...rest: unknown[]
    ) => Promise<unknown>;
    subtle.generateKey = ((algorithm: AlgorithmIdentifier, ...rest: unknown[]) =>
      isEd25519(algorithm) ? refuse() : generateKey(algorithm, ...rest)) as typeof subtle.generateKey;
    subtle.importKey = ((format: unknown, data: unknown, algorithm: AlgorithmIdentifier, ...rest: unknown[]) =>
      isEd25519(algorithm) ? refuse() : importKey(format, data, algorithm, ...rest)) as typeof subtle.importKey;
  });
  const page = await context.newPage();
  try {
    await page.goto(await inviteOperator('observer'));
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('This browser cannot keep your key safely');
    await expect(alert).toContainText('KEY_STORAGE_UNSUPPORTED');
    await expect(page.getByLabel('Passphrase', { exact: true })).toHaveCount(0);
    await snap(page, 'identity-key-unsupported');
    await page.goto('/');
    await expect(page.getByRole('alert')).toContainText('This browser cannot keep your key safely');
    await expect(page.getByRole('heading', { name: 'Sign in to Switchboard' })).toHaveCount(0);
  } finally {
    await context.close();
  }
});
