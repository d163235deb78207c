// HTTP hardening in a real browser: the sign-in screen, the console and a live room run under
// the server's CSP without a single violation (a securitypolicyviolation listener installed
// before any script, and Chromium's "Content Security Policy" console messages), every answer
// carries the security headers, and a page of another origin cannot frame the console.
import { expect, test, type BrowserContext, type Page, type Response, expectConsoleErrors } from './support/test';
import { openDemoConsole, type DemoConsole } from './support/demo-console';

let demo: DemoConsole;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser);
});

test.afterAll(async () => {
  await demo?.close();
});

/** Records CSP violations in the page (before any of its scripts run) and in the console. */
async function watchCsp(context: BrowserContext, page: Page): Promise<() => Promise<string[]>> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const consoleHits: string[] = [];
  page.on('console', (msg) => {
    if (msg.text().includes('Content Security Policy')) consoleHits.push(msg.text());
  });
  return async () => [
    ...consoleHits,
    ...(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])),
  ];
}

function expectSecurityHeaders(response: Response | null): void {
  const headers = response?.headers() ?? {};
  const csp = headers['content-security-policy'] ?? '';
  const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
  expect(scriptSrc).toContain("'self'");
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).not.toContain("'unsafe-eval'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
}

test('the sign-in screen runs under the CSP with no violation, and carries every security header', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: demo.server.url });
  const page = await context.newPage();
  const violations = await watchCsp(context, page);
  const response = await page.goto('/');
  expectSecurityHeaders(response);
  await expect(page.getByRole('heading', { name: 'Sign in to Switchboard' })).toBeVisible();
  expect(await violations()).toEqual([]);
  // The API's answers carry them too (a JSON error as much as the shell).
  const api = await page.request.get('/api/auth/session');
  expect(api.status()).toBe(401);
  expect(api.headers()['x-content-type-options']).toBe('nosniff');
  expect(api.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await context.close();
});

test('the console and a live room run under the CSP with no violation', async () => {
  const { page, context } = demo;
  const violations = await watchCsp(context, page);
  const response = await page.goto('/');
  expectSecurityHeaders(response);
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
  await page.goto('/rooms');
  await page.getByRole('link', { name: /Demo room/ }).click();
  await expect(page).toHaveURL(/\/rooms\/demo$/);
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  await expect(page.getByTestId('public-message').first()).toBeVisible({ timeout: 20_000 });
  // A dialog locks the page's scroll with a <style> element: admitted by the page's nonce, and applied.
  await page.keyboard.press('Shift+?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await violations()).toEqual([]);
});

test('a page of another origin cannot frame the console', async ({ browser }) => {
  expectConsoleErrors(/frame-ancestors/);
  const context = await browser.newContext();
  const page = await context.newPage();
  const refusals: string[] = [];
  page.on('console', (msg) => {
    if (/frame-ancestors|X-Frame-Options|refused to (connect|display)/i.test(msg.text())) refusals.push(msg.text());
  });
  await page.setContent(`<iframe id="victim" src="${demo.server.url}/" width="800" height="600"></iframe>`);
  const frameEl = await page.waitForSelector('#victim');
  const frame = await frameEl.contentFrame();
  await expect.poll(() => refusals.length).toBeGreaterThan(0);
  // Nothing of the console rendered inside the frame.
  const framedText = frame ? await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '') : '';
  expect(framedText).not.toContain('Sign in to Switchboard');
  expect(framedText).not.toContain('Items waiting for you');
  await context.close();
});
