import { expect, test, type ConsoleMessage } from '@playwright/test';

// Chromium reports every 4xx as a console error; "nobody is signed in" (401 from
// /api/auth/session) is the expected answer for an anonymous visitor, not a problem.
const expectedNoise = (msg: ConsoleMessage) =>
  msg.location().url.endsWith('/api/auth/session') && /status of 401/.test(msg.text());

test('an anonymous visitor gets the sign-in screen, from a server that runs under a strict CSP', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !expectedNoise(msg)) problems.push(msg.text());
  });

  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { name: 'Sign in to Switchboard' })).toBeVisible();
  await expect(page.getByText(/^Server \d+\.\d+\.\d+/)).toBeVisible();
  // The console's screens and navigation stay behind the sign-in.
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  // A deep link is served the shell and answered by the client-side router.
  await page.goto('/no/such/screen');
  await expect(page.getByRole('heading', { name: 'Nothing here' })).toBeVisible();

  expect(problems).toEqual([]);
});

test('the theme choice is remembered across reloads', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.getByLabel('Theme').selectOption('light');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});
