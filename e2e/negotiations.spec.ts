// The negotiations console end to end, against a server of its own with
// the demo on (DEMO=1, fast pace): the operator reviews the demo's finished pricing negotiation
// round by round (diffs, every signature verified in the browser, the agreement complete and
// its inclusion proof verified); a tampered answer is shown as not verified; the operator then
// negotiates as a party with an outside agent played here by a script over HTTP (the demo's own
// agents answer by themselves: decisions-demo §13, e2e/demo-truth.spec.ts), co-signs the
// agreement in the browser, and finds it verified in the log browser. Terms carrying HTML are
// shown as text.
import { outsideSeller } from './support/outside-seller';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from './support/test';
import { snap } from './support/screenshots';
import { openDemoConsole, type DemoConsole } from './support/demo-console';
import { cosignAgreement } from './support/cosign';

test.describe.configure({ mode: 'serial' });

const DEMO_SEED = 7;
const HTML_NOTE = '<b>net 30</b><img src=x onerror="window.__pwned=1">';
let demo: DemoConsole;
let page: Page;
let operatorDid: string;
let pricingId: string;
let ownId: string;

test.beforeAll(async ({ browser }) => {
  demo = await openDemoConsole(browser, { seed: DEMO_SEED, context: { acceptDownloads: true } });
  page = demo.page;
  operatorDid = await page.evaluate(
    async () => ((await (await fetch('/api/auth/session')).json()) as { did: string }).did,
  );
});

test.afterAll(async () => {
  await demo?.close();
});

/** An agent outside the demo (the demo's agents answer on their own), over HTTP. */
const seller = () => outsideSeller(demo.server.url, DEMO_SEED);

test('the list shows the four demo negotiations with state, parties, rounds and a state filter', async () => {
  await page.getByRole('link', { name: 'Negotiations' }).click();
  await expect(page).toHaveURL(/\/negotiations$/);
  const rows = page.getByTestId('negotiation-row');
  await expect(rows).toHaveCount(4, { timeout: 20_000 });
  const pricing = rows.filter({ hasText: 'pricing' });
  await expect(pricing).toContainText('Accepted', { timeout: 20_000 });
  await expect(pricing).toContainText('4 of 8 rounds');
  await expect(pricing.getByTestId('changed-mark')).toHaveText('New to you');
  await expect(rows.filter({ hasText: 'data-access' })).toContainText('Withdrawn');
  // The service-level proposal lapses after 8 s at the fast pace; the server's sweeper ends it.
  await expect(rows.filter({ hasText: 'service-level' })).toContainText('Expired', { timeout: 20_000 });
  await page.getByLabel('State').selectOption('ACCEPTED');
  await expect(page).toHaveURL(/state=ACCEPTED/);
  await expect(rows).toHaveCount(2);
  await page.getByLabel('State').selectOption('');
  await expect(rows).toHaveCount(4);
  await snap(page, 'negotiations-list');
  pricingId = (await pricing.getAttribute('href'))!.split('/').pop()!;
});

test('the finished pricing negotiation reads round by round, each signature verified in the browser, the agreement complete and proven in the log', async () => {
  await page.getByTestId('negotiation-row').filter({ hasText: 'pricing' }).click();
  await expect(page.getByRole('heading', { name: /pricing negotiation/ })).toBeVisible();
  const items = page.getByTestId('history-item');
  // open, 4 proposals, accept, co-sign
  await expect(items).toHaveCount(7, { timeout: 20_000 });
  await expect(page.getByTestId('history-verdict')).toContainText('All 7 signatures verify');
  for (let i = 0; i < 7; i++) await expect(items.nth(i).getByTestId('verified-badge')).toHaveText('✓Verified');
  await expect(items.nth(1)).toContainText('Round 1 · proposal');
  const round2 = items.nth(2);
  await expect(round2).toContainText('Round 2 · counter-proposal');
  await expect(round2.getByTestId('term-change').filter({ hasText: 'price per call (EUR)' })).toHaveAttribute(
    'data-kind',
    'changed',
  );
  await expect(round2.getByTestId('term-change').filter({ hasText: 'payment terms' })).toContainText(
    /net 30\s*→\s*to\s*net 15/,
  );
  const round4 = items.nth(4);
  await expect(
    round4.getByTestId('term-change').filter({ hasText: /^. (added|removed|changed)\s*support/ }),
  ).toHaveAttribute('data-kind', 'added');
  await expect(items.nth(5)).toContainText('Accepted');
  await expect(items.nth(6)).toContainText('Co-signed the agreement');

  const agreement = page.getByTestId('agreement-panel');
  await expect(agreement.getByTestId('agreement-complete')).toBeVisible();
  await expect(agreement.getByTestId('agreement-signature')).toHaveCount(2);
  for (const row of await agreement.getByTestId('agreement-signature').all())
    await expect(row).toContainText('Signed, verified');
  // Words first; the proof one click away (decisions-web.md §32).
  await expect(agreement.getByTestId('agreement-sentence')).toContainText('Agreement between');
  await expect(agreement.getByTestId('statement-jcs')).toBeHidden();
  await agreement.getByText('Show the proof').click();
  await expect(agreement.getByTestId('statement-jcs')).toContainText('{"agreement_hash":"sha256-');
  await expect(agreement.getByTestId('log-proof')).toContainText('Inclusion proof verified');
  await snap(page, 'negotiation-detail');

  // Seen now: back in the list it is no longer marked.
  await page.getByRole('link', { name: 'Negotiations', exact: true }).first().click();
  await expect(
    page.getByTestId('negotiation-row').filter({ hasText: 'pricing' }).getByTestId('changed-mark'),
  ).toHaveCount(0);
});

test('a history whose document was altered on the way is shown as not verified, naming the step', async () => {
  await page.route(`**/api/negotiations/${pricingId}`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { history: Array<{ document?: { terms?: Record<string, unknown> } }> };
    // One changed character in round 2's price: same shape, the counter-proposal's signature breaks.
    const terms = body.history[2]!.document!.terms!;
    terms['price_per_call_eur'] = String(terms['price_per_call_eur']).replace(/\d$/, (d) =>
      String((Number(d) + 1) % 10),
    );
    await route.fulfill({ response, json: body });
  });
  await page.goto(`/negotiations/${pricingId}`);
  const items = page.getByTestId('history-item');
  await expect(items.nth(2).getByTestId('verified-badge')).toHaveText('✗Not verified');
  await expect(items.nth(1).getByTestId('verified-badge')).toHaveText('✓Verified');
  await expect(page.getByTestId('history-verdict')).toContainText('6 of 7 signatures verify');
  await expect(page.getByTestId('history-verdict')).toContainText('item 3');
  await expect(page.getByTestId('history-verdict')).toContainText('SIGNATURE_INVALID');
  await page.unroute(`**/api/negotiations/${pricingId}`);
});

test('the scheduling negotiation flags its regulated party, and its terms are redacted in the log', async () => {
  await page.goto('/negotiations?state=ACCEPTED');
  await page.getByTestId('negotiation-row').filter({ hasText: 'scheduling' }).click();
  await expect(page.getByText('Regulated obligations (RFC 0002 §3.7)')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Regulated obligations' })).toContainText(
    'is a regulated medical party: patient-confidentiality',
  );
  await expect(page.getByTestId('history-verdict')).toContainText('All 5 signatures verify');
  await page.getByTestId('agreement-logged').getByRole('link', { name: 'transparency log' }).click();
  const entry = page.getByTestId('log-entry').and(page.locator('[data-index="0"]'));
  await expect(entry.getByTestId('entry-proof')).toHaveText('✓ Inclusion proof verified against the head', {
    timeout: 20_000,
  });
  await expect(entry.getByTestId('disclosure').filter({ hasText: '/terms/patient_ref' })).toHaveAttribute(
    'data-redacted',
    'true',
  );
  await expect(entry.getByTestId('disclosure').filter({ hasText: '/terms/patient_ref' })).toContainText(
    /redacted\s*digest [0-9a-f]{16}…/,
  );
  // In words: the redacted term is hidden by a party, not a digest (decisions-web.md §34).
  await expect(entry.getByTestId('agreement-term').and(page.locator('[data-key="patient_ref"]'))).toContainText(
    'hidden by a party',
  );
});

test('the operator negotiates as a party with a demo agent, co-signs the agreement in the browser and finds it verified in the log', async () => {
  const agent = seller();
  await page.goto('/negotiations');
  await page.getByRole('button', { name: 'New negotiation' }).click();
  await page.getByLabel('Counterparty DID').fill(agent.did);
  await page.getByLabel('Category').selectOption('pricing');
  // Round 1 with the open: term fields, and a term carrying HTML as other terms (JSON).
  await page.getByLabel('Service action (optional)').fill('weather.forecast.basic');
  await page.getByLabel('Calls per month (optional)').fill('50000');
  await page.getByLabel('Price per call (EUR)').fill('0.0030');
  await page.getByText('Advanced: other terms as JSON').click();
  await page.getByLabel('Other terms as JSON').fill(JSON.stringify({ payment_terms: HTML_NOTE }));
  await page.getByRole('button', { name: 'Sign, open and offer' }).click();
  await expect(page).toHaveURL(/\/negotiations\/neg_/);
  ownId = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByTestId('party-actions')).toContainText('Waiting for the other party’s answer to round 1');
  await expect(page.getByRole('button', { name: 'Sign and propose' })).toHaveCount(0);

  // Round 2: the agent counters over HTTP; the console shows it and its diff.
  // Valid for 4 minutes: under the server's 5-minute "expiring soon" threshold.
  await agent.propose(
    ownId,
    {
      action: 'weather.forecast.basic',
      calls_per_month: 50000,
      price_per_call_eur: '0.0042',
      payment_terms: HTML_NOTE,
      support: 'email',
    },
    4 * 60_000,
  );
  const items = page.getByTestId('history-item');
  await expect(items).toHaveCount(3, { timeout: 10_000 });
  await expect(
    items
      .nth(2)
      .getByTestId('term-change')
      .filter({ hasText: /^. (added|removed|changed)\s*support/ }),
  ).toHaveAttribute('data-kind', 'added');
  await expect(items.nth(2).getByTestId('new-mark')).toBeVisible();
  await expect(items.nth(1).getByTestId('new-mark')).toHaveCount(0); // the operator's own proposal is not news to it
  await expect(page.getByTestId('valid-until-countdown')).toContainText(/Latest proposal: [0-3] min \d\d s left/);
  await page.getByRole('link', { name: 'Negotiations', exact: true }).first().click();
  await expect(page.locator(`[data-testid="negotiation-row"][href="/negotiations/${ownId}"]`)).toContainText(
    /Expiring soon · [0-3] min \d\d s left/,
  );
  await page.goBack();
  await expect(items).toHaveCount(3);

  // HTML in terms is text: the literal markup shows, no element is made, no script ran.
  await expect(items.nth(1).getByTestId('terms')).toContainText(HTML_NOTE);
  await expect(items.nth(1).getByTestId('terms').locator('b, img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

  // Round 3: the operator counters from the console: the price field, the other terms kept.
  await page.getByTestId('party-actions').getByLabel('Price per call (EUR)').fill('0.0036');
  await page.getByRole('button', { name: 'Sign and counter' }).click();
  await expect(items).toHaveCount(4);
  await expect(items.nth(3).getByTestId('term-change')).toHaveCount(1);
  await expect(items.nth(3).getByTestId('term-change')).toContainText(/0\.0042\s*→\s*to\s*0\.0036/);

  // The agent accepts round 3: the agreement awaits the operator's co-signature.
  await agent.accept(ownId);
  const agreement = page.getByTestId('agreement-panel');
  await expect(agreement).toBeVisible({ timeout: 10_000 });
  const mine = agreement.getByTestId('agreement-signature').filter({ hasText: 'you' });
  await expect(mine).toContainText('Not signed yet');
  await expect(agreement.getByTestId('agreement-signature').filter({ hasNotText: 'you' })).toContainText(
    'Signed, verified',
  );
  await agreement.getByText('Show the proof').click();
  const hash = (await agreement.getByTestId('agreement-hash').textContent())!;
  await expect(agreement.getByTestId('statement-jcs')).toHaveText(
    new RegExp(`^\\{"agreement_hash":"${hash}","agreement_id":"agr_[0-9a-f]{32}","type":"agreement"\\}$`),
  );
  await expect(agreement).toContainText('identical to the server’s statement_jcs');
  await snap(page, 'negotiation-cosign');
  await agreement.getByText('Show the proof').click();
  await cosignAgreement(agreement);
  await agreement.getByText('Show the proof').click();
  await expect(agreement.getByTestId('agreement-complete')).toBeVisible();
  await expect(mine).toContainText('Signed, verified');
  await expect(agreement.getByTestId('log-proof')).toContainText('Inclusion proof verified');
  // What the server now holds verifies for the agent too, with the same shared code.
  const state = await agent.state(ownId);
  expect(Object.keys(state.agreement!.signatures).sort()).toEqual([agent.did, operatorDid].sort());

  // Export: the negotiation with its agreement and log proof as one JSON file.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^negotiation-${ownId}-\\d{4}-\\d\\d-\\d\\d\\.json$`));
  const exported = JSON.parse(readFileSync((await file.path())!, 'utf8')) as Record<string, unknown> & {
    agreement: { agreement_hash: string };
    log: { proof: unknown };
  };
  expect(exported['format']).toBe('switchboard-negotiation-export');
  expect(exported.agreement.agreement_hash).toBe(hash);
  expect(exported.log.proof).toBeTruthy();

  // The log browser: the whole chain verified, this entry found and its proof verified.
  await agreement.getByTestId('log-proof').getByRole('link').click();
  await expect(page).toHaveURL(/\/transparency-log\?entry=\d+/);
  await expect(page.getByTestId('chain-verdict')).toContainText('Chain verified: 3 entries', { timeout: 20_000 });
  const entry = page.getByTestId('log-entry').filter({ hasText: hash });
  // Each entry reads as a sentence, its terms labelled, its state said (decisions-web.md §34).
  await expect(entry.getByTestId('entry-sentence')).toContainText('Agreement between');
  await expect(entry.getByTestId('entry-verified')).toHaveText('✓ Verified in this browser');
  await expect(entry.getByTestId('entry-proof')).toHaveText('✓ Inclusion proof verified against the head');
  await expect(entry).toContainText(HTML_NOTE);
  await expect(entry.locator('b, img')).toHaveCount(0);
  // The scheduling agreement is confidential: its terms are logged as digests only.
  const redacted = page.getByTestId('disclosure').and(page.locator('[data-redacted="true"]'));
  await expect(redacted.first()).toContainText('redacted');
  await expect(page.getByTestId('agreement-term').filter({ hasText: 'hidden by a party' }).first()).toBeVisible();
  await snap(page, 'transparency-log');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'transparency-log-phone');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('the log browser names the first broken entry when an entry was altered', async () => {
  await page.route('**/oap/transparency-log?from=0*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { entries: Array<Record<string, unknown>> };
    body.entries[1]!['timestamp'] = '2020-01-01T00:00:00.000Z';
    await route.fulfill({ response, json: body });
  });
  await page.goto('/transparency-log');
  await expect(page.getByTestId('chain-verdict')).toContainText('The chain breaks at entry #1');
  await expect(page.getByTestId('log-entry').filter({ hasText: 'First broken entry' })).toHaveAttribute(
    'data-index',
    '1',
  );
  await page.unroute('**/oap/transparency-log?from=0*');
});
