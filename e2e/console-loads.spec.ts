import { expect, test } from './support/test';

// Chromium logs every 4xx answer as a console error: the console's session probe asks with
// `optional=1`, so an anonymous visitor's page logs nothing at all.

test('an anonymous visitor gets the sign-in screen, from a server that runs under a strict CSP', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(msg.text());
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
