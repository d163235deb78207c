// Importing an A2A agent: a facilitator pastes the URL of an Agent Card served by a small local
// server, sees the agent in the directory marked "Imported" with its skills in words and the card's
// URL one click away; a URL that is not a card is refused in words and imports nothing; an observer
// sees the agent and the form disabled. At 1440 and 390 px without sideways scrolling, and with no
// serious or critical axe violation. The card server is on loopback, so this server is started
// with ALLOW_PRIVATE_SERVICE_URLS=1, as an administrator would for a local setup.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { expect, expectConsoleErrors, test, type BrowserContext, type Page } from './support/test';
import { SERVER_CLI } from '../server/test-support/compiled-entry';
import { sampleCard, startCardServer, type CardServer } from '../server/test-support/card-server';
import { enrollNewKey } from './support/operators';
import { expectNoSideScroll } from './support/page-width';
import { snap } from './support/screenshots';
import { startServer, type RunningServer } from './support/server';

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let cards: CardServer;
let context: BrowserContext;
let page: Page;

/** `operators invite --role <role>` against this journey's own server. */
async function invite(role: 'observer'): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [...SERVER_CLI, 'operators', 'invite', '--role', role],
    { env: { ...process.env, DATA_DIR: server.dataDir }, timeout: 20_000 },
  );
  const token = /#token=([A-Za-z0-9_-]+)/.exec(stdout + stderr)?.[1];
  if (!token) throw new Error(`operators invite printed no link:\n${stdout}\n${stderr}`);
  return new URL(`/enroll#token=${token}`, server.url).toString();
}

async function seriousViolations(p: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page: p })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(' | ')})`);
}

test.beforeAll(async ({ browser }) => {
  cards = await startCardServer({
    '/.well-known/agent-card.json': {
      body: JSON.stringify(
        sampleCard('Travel planner', {
          // Hostile text stays text: neither the markup nor the bidi control acts.
          skills: [
            ...(sampleCard('x').skills as unknown[]),
            {
              id: 'odd',
              name: '<img src=x onerror="window.__pwned=1">',
              description: 'Reads\u202Etxt.exe backwards',
              tags: ['<b>bold</b>'],
            },
          ],
        }),
      ),
    },
    '/not-a-card.json': { body: JSON.stringify({ hello: 'world' }) },
  });
  server = await startServer({ DEMO: '0', ALLOW_PRIVATE_SERVICE_URLS: '1' }, { enrollLinkWaitMs: 10_000 });
  if (!server.enrollUrl) throw new Error(`No enrollment link:\n${server.log()}`);
  context = await browser.newContext({ baseURL: server.url });
  page = await context.newPage();
  await enrollNewKey(page, server.enrollUrl);
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
  await cards?.close();
});

test('a facilitator imports an A2A agent by its card URL and sees it in the directory with its skills, marked imported', async () => {
  await page.goto('/directory');
  const section = page.getByRole('region', { name: 'Imported A2A agents' });
  await expect(section.getByText('No A2A agent imported yet.')).toBeVisible();
  const form = section.getByRole('form', { name: 'Import an A2A agent' });

  await test.step('a URL that answers something other than a card is refused in words', async () => {
    expectConsoleErrors(/status of 422 .*\/api\/directory\/imports\)$/);
    await form.getByLabel('Agent Card URL').fill(`${cards.url}/not-a-card.json`);
    await form.getByRole('button', { name: 'Import agent' }).click();
    const error = form.getByTestId('import-error');
    await expect(error).toContainText('not with an A2A Agent Card');
    await expect(error).toContainText('The name is missing.');
    await expect(section.getByTestId('imported-agent')).toHaveCount(0);
  });

  const cardUrl = `${cards.url}/.well-known/agent-card.json`;
  await test.step('the card is imported and shown with its skills', async () => {
    await form.getByLabel('Agent Card URL').fill(cardUrl);
    await expect(form.getByTestId('import-error')).toHaveCount(0);
    await form.getByRole('button', { name: 'Import agent' }).click();
    await expect(form.getByTestId('import-done')).toHaveText('Imported Travel planner, with 3 skills.');
    const agent = section.getByRole('article', { name: 'Travel planner' });
    await expect(agent.getByTestId('imported-badge')).toHaveText('Imported');
    await expect(agent.getByTestId('imported-by')).toContainText('Imported by You');
    await expect(agent).toContainText('Travel planner plans trips: flights, trains and hotels.');
    await expect(agent).toContainText('By Example Travel · version 2.1.0');
    const skills = agent.getByRole('list', { name: 'Skills of Travel planner' }).getByTestId('imported-skill');
    await expect(skills).toHaveCount(3);
    await expect(skills.nth(0)).toContainText('Book a flight');
    await expect(skills.nth(0)).toContainText('Finds and books a flight between two cities.');
    await expect(skills.nth(0)).toContainText('flights');
    await expect(skills.nth(0)).toContainText('For example: “A flight from Lisbon to Oslo on Friday”');
    await expect(skills.nth(2)).toContainText('<img src=x onerror="window.__pwned=1">');
    await expect(skills.nth(2)).toContainText('<b>bold</b>');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(agent.getByTestId('imported-reached')).toHaveText(
      'Reached over JSONRPC at https://travel.example/a2a',
    );
    // The card's URL is one click away: a link that opens apart from the console, and a copy button.
    const source = agent.getByTestId('imported-source');
    await expect(source).toHaveText(new URL(cards.url).host);
    await expect(source).toHaveAttribute('href', cardUrl);
    await expect(source).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(source).toHaveAttribute('target', '_blank');
    await expect(agent.getByRole('button', { name: 'Copy card URL' })).toBeVisible();
    await agent.getByText('The card as text').click();
    await expect(agent.getByTestId('imported-card-text')).toContainText('"preferredTransport": "JSONRPC"');
    await snap(page, 'directory-imported-agent');
  });

  await test.step('the directory search matches the imported agent by a skill tag', async () => {
    await page.getByLabel('Search by capability or intent').fill('hotels');
    await expect(section.getByTestId('imported-agent')).toHaveCount(1);
    await page.getByLabel('Search by capability or intent').fill('submarine');
    await expect(section.getByText('None of the 1 imported agents matches the search.')).toBeVisible();
    await page.getByLabel('Search by capability or intent').fill('');
  });

  await test.step('at 1440 and 390 px the screen does not scroll sideways and has no serious axe violation', async () => {
    await expectNoSideScroll(page, 'directory-imported', async () => {
      await expect(section.getByTestId('imported-agent')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  await test.step('importing the same URL again fetches the card again and keeps one entry', async () => {
    await form.getByLabel('Agent Card URL').fill(cardUrl);
    await form.getByRole('button', { name: 'Import agent' }).click();
    await expect(form.getByTestId('import-done')).toContainText('Fetched the card of Travel planner again');
    await expect(section.getByTestId('imported-agent')).toHaveCount(1);
  });
});

test('an observer sees the imported agent and the import form disabled', async ({ browser }) => {
  const observerContext = await browser.newContext({ baseURL: server.url });
  try {
    const observer = await observerContext.newPage();
    await enrollNewKey(observer, await invite('observer'), 'Observer');
    await observer.goto('/directory');
    const section = observer.getByRole('region', { name: 'Imported A2A agents' });
    const agent = section.getByRole('article', { name: 'Travel planner' });
    await expect(agent).toBeVisible();
    // The facilitator who imported it gave no name: a colleague reads "Operator …" and the key's
    // last six characters, never the key itself.
    const importer = await page.evaluate(
      async () => ((await (await fetch('/api/auth/session')).json()) as { did: string }).did,
    );
    await expect(agent.getByTestId('imported-by')).toContainText(`Imported by Operator …${importer.slice(-6)}`);
    await expect(agent.getByTestId('imported-by')).not.toContainText('did:key');
    const form = section.getByRole('form', { name: 'Import an A2A agent' });
    await expect(form.getByLabel('Agent Card URL')).toBeDisabled();
    await expect(form.getByRole('button', { name: 'Import agent' })).toBeDisabled();
    await expect(form).toContainText('Only facilitators import agents');
    await expect(section.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
    expect(await seriousViolations(observer)).toEqual([]);
  } finally {
    await observerContext.close();
  }
});

test('a facilitator removes the imported agent after a confirmation', async () => {
  await page.goto('/directory');
  const section = page.getByRole('region', { name: 'Imported A2A agents' });
  await section.getByRole('button', { name: 'Remove Travel planner from the directory' }).click();
  await page.getByRole('button', { name: 'Remove agent' }).click();
  await expect(section.getByText('No A2A agent imported yet.')).toBeVisible();
});
