// Untrusted content, end to end: a real agent over MQTT writes a corpus of
// script-injection payloads (e2e/support/injection-corpus.ts) into every field the console
// shows: message text, its own id, its heartbeat description, finding bullets, risk, clarifying
// question, result, artifact_link URL and label, the review queue, the raw inspector, the
// reject details of the control log. None runs: the `window.__pwned` flag the payloads set stays
// unset, no dialog opens, no CSP violation is reported, and no element or event-handler
// attribute is injected into the DOM. A canary at the end shows each of those detectors fires.
import { expect, test, type BrowserContext, type Page, expectConsoleErrors, type Locator } from './support/test';
import { connectTestAgent, type TestAgent } from './support/agents';
import { HOSTILE_HTTP_LINKS, INJECTION_CORPUS, NON_HTTP_LINKS, unicodeEscaped } from './support/injection-corpus';
import { enrollNewKey, inviteOperator } from './support/operators';
import { perWorker } from './support/run-names';

test.describe.configure({ mode: 'serial' });

const ROOM = perWorker('inj');
// An agent id is itself agent-written (the CLI accepts anything without whitespace, "/", "+", "#").
const AGENT = `agent.inj<svg>"'&amp;`;
let context: BrowserContext;
let page: Page;
let agent: TestAgent;
const describers: TestAgent[] = [];
let taskId = '';

/** The corpus as heartbeat descriptions, each within the 500 characters the server keeps. */
/**
 * A text shown through the console's long-text view, whole: a long one is shown cut with
 * "Show all", which is opened first; the text is the element's first text node (the button follows).
 */
async function whole(text: Locator): Promise<string | null | undefined> {
  const more = text.getByRole('button', { name: /^Show all/ });
  if ((await more.count()) > 0) await more.click();
  return text.evaluate((el) => el.firstChild?.textContent);
}

const describedAs = (agentId: string) => whole(page.getByTestId(`agent-${agentId}`).getByTestId('agent-description'));

function descriptions(): string[] {
  const out: string[] = [];
  for (const p of INJECTION_CORPUS) {
    const last = out.at(-1);
    if (last !== undefined && last.length + 3 + p.text.length <= 500) out[out.length - 1] = `${last} | ${p.text}`;
    else out.push(p.text);
  }
  return out;
}
const dialogs: string[] = [];

interface Report {
  pwned: unknown;
  protoPwned: unknown;
  csp: string[];
  handlers: string[];
  dangerous: string[];
  badLinks: string[];
}

/** What would show that something ran or was injected; all empty when the console is safe. */
function inspectPage(p: Page): Promise<Report> {
  return p.evaluate(() => {
    const w = window as unknown as { __pwned?: unknown; __csp?: string[] };
    const handlers: string[] = [];
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.attributes)
        if (/^on/i.test(attr.name)) handlers.push(`<${el.tagName.toLowerCase()} ${attr.name}="${attr.value}">`);
    }
    const dangerous = [
      ...document.querySelectorAll(
        'body script, iframe, frame, object, embed, base, meta[http-equiv], body style, body link, img:not([src="/favicon.svg"]), math, [formaction], [srcdoc], [style*="url("]',
      ),
    ].map((el) => el.outerHTML.slice(0, 120));
    const badLinks = [...document.querySelectorAll<HTMLAnchorElement>('a[href]')]
      .filter((a) => a.protocol !== 'http:' && a.protocol !== 'https:')
      .map((a) => a.getAttribute('href') ?? '');
    return {
      pwned: w.__pwned,
      protoPwned: (Object.prototype as { __pwned?: unknown }).__pwned,
      csp: w.__csp ?? ['(listener missing)'],
      handlers,
      dangerous,
      badLinks,
    };
  });
}

const CLEAN: Report = { pwned: undefined, protoPwned: undefined, csp: [], handlers: [], dangerous: [], badLinks: [] };

/**
 * CSP reports the console causes itself with no agent content on screen: Radix's scroll lock
 * inserts a <style> when a dialog opens, which `style-src 'self'` refuses (harmless: the lock
 * works by event listeners). Measured in beforeAll; only reports beyond these count.
 */
const appOwnCsp = new Set<string>();

async function expectNothingRan(): Promise<void> {
  const report = await inspectPage(page);
  expect({ ...report, csp: report.csp.filter((c) => !appOwnCsp.has(c)) }).toEqual(CLEAN);
  expect(dialogs).toEqual([]);
}

const candidate = (messageType: string, content: Record<string, unknown>) =>
  agent.send(`rooms/${ROOM}/public_candidates`, 'result', ROOM, {
    task_id: taskId,
    message_type: messageType,
    content,
  });

async function filterText(q: string): Promise<void> {
  await page.getByLabel('Filter by text').fill(q);
  await expect(page).toHaveURL(/[?&]q=/);
}

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  // Before any page script: collect CSP violation reports from the very first paint.
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sample} ${e.sourceFile.replace(/^.*\//, '')}:${e.lineNumber}`,
      ),
    );
  });
  page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  await enrollNewKey(page, await inviteOperator('facilitator'));
  const created = await page.evaluate(async (id) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: 'Injection', moderation: 'auto' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
  const [first, ...rest] = descriptions();
  agent = await connectTestAgent(AGENT);
  agent.heartbeat(ROOM, first!);
  // The rest of the corpus as the descriptions of more agents, one each.
  describers.push(...(await Promise.all(rest.map((_, i) => connectTestAgent(`agent.inj.d${i + 1}`)))));
  describers.forEach((d, i) => d.heartbeat(ROOM, rest[i]!));
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  // The baseline: a dialog opened and closed before any agent content is on screen.
  await page.locator('body').click({ position: { x: 5, y: 200 } });
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  for (const c of (await inspectPage(page)).csp) appOwnCsp.add(c);
  expect([...appOwnCsp].every((c) => c.startsWith('style-src-elem inline'))).toBe(true);
  await expectNothingRan();
});

test.afterAll(async () => {
  await agent?.close();
  await Promise.all(describers.map((d) => d.close()));
  await context?.close();
});

test('every payload, in every field an agent writes, shows as text and runs nowhere', async () => {
  // A grant for every message type, from the console.
  await page.getByLabel('Agent', { exact: true }).fill(AGENT);
  await page.getByLabel('Goal').fill('Say something hostile');
  for (const t of ['clarifying_question', 'risk', 'artifact_link'])
    await page.getByRole('checkbox', { name: t, exact: true }).check();
  await page.getByLabel('Budget (messages)').fill('1000');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  const task = await agent.waitFor((topic, e) => topic === `rooms/${ROOM}/agents/${AGENT}/inbox` && e.type === 'task');
  taskId = (task.payload as { task_id: string }).task_id;
  await agent.waitFor(
    (topic, e) =>
      topic === `rooms/${ROOM}/control` &&
      e.type === 'mic_grant' &&
      (e.payload as { task_id: string }).task_id === taskId,
  );

  const texts = INJECTION_CORPUS.map((p) => p.text);
  for (const [i, p] of INJECTION_CORPUS.entries()) await candidate('progress', { text: `inj-${i}: ${p.text}` });
  const findingId = await candidate('finding', { bullets: texts });
  await candidate('risk', { text: texts[2], severity: 'high', mitigation: texts[5] });
  await candidate('clarifying_question', { question: texts.join('\n') });
  for (const [i, link] of HOSTILE_HTTP_LINKS.entries())
    await candidate('artifact_link', { url: link.url, label: texts[i] });
  // The same kind of payload with `<` and `>` written as JSON \u escapes: decoded, still text.
  const escaped = {
    id: `msg_esc_${Date.now()}`,
    type: 'result',
    room_id: ROOM,
    from: { kind: 'agent', id: AGENT },
    ts: Math.floor(Date.now() / 1000),
    payload: {
      task_id: taskId,
      message_type: 'progress',
      content: { text: 'inj-esc: <img src=x onerror=window.__pwned=60>' },
    },
  };
  await agent.client.publishAsync(`rooms/${ROOM}/public_candidates`, unicodeEscaped(JSON.stringify(escaped)), {
    qos: 1,
  });
  await candidate('result', { text: texts.join('\n') });

  const rows = page.getByTestId('public-message');
  await expect(rows.filter({ has: page.getByTestId('message-type').getByText('result', { exact: true }) })).toBeVisible(
    { timeout: 20_000 },
  );
  await expectNothingRan();

  // Message text: each payload, alone in its row, exactly as written.
  for (const [i, p] of INJECTION_CORPUS.entries()) {
    await filterText(`inj-${i}: `);
    await expect(rows, p.name).toHaveCount(1);
    expect(await whole(rows.getByTestId('message-text')), p.name).toBe(`inj-${i}: ${p.text}`);
  }
  await filterText('inj-esc');
  await expect(rows.getByTestId('message-text')).toHaveText('inj-esc: <img src=x onerror=window.__pwned=60>');
  await page.getByRole('button', { name: 'Clear filters' }).click();

  // The agent's own id, as sender and in the agents panel, and its heartbeat description.
  const card = page.getByTestId(`agent-${AGENT}`);
  await expect(card.locator('span.font-medium')).toHaveText(AGENT);
  const described = descriptions();
  expect(described.join(' | ')).toBe(texts.join(' | '));
  expect(await describedAs(AGENT)).toBe(described[0]);
  for (const [i, d] of describers.entries()) {
    await expect.poll(() => describedAs(d.agentId)).toBe(described[i + 1]!);
  }

  // Finding bullets, risk, question and result: every payload, character for character.
  await page.getByLabel('Filter by type').fill('finding');
  await expect(rows).toHaveCount(1);
  expect(await rows.locator('li').allTextContents()).toEqual(texts);
  await expect(rows.locator('span[title]').first()).toHaveText(AGENT);
  // The raw inspector shows the stored bytes, pretty-printed, as text.
  await rows.getByRole('button', { name: /^Inspect/ }).click();
  const inspector = page.getByRole('dialog', { name: 'Raw envelope' });
  const stored = await page.evaluate(
    async ({ room, id }) => {
      const res = await fetch(`/api/rooms/${room}/messages?topic=public&limit=500`);
      return ((await res.json()) as { messages: { messageId: string; raw: string }[] }).messages.find(
        (m) => m.messageId === id,
      )!.raw;
    },
    { room: ROOM, id: findingId },
  );
  expect(await inspector.getByTestId('inspector-json').textContent()).toBe(JSON.stringify(JSON.parse(stored), null, 2));
  await expectNothingRan();
  await page.keyboard.press('Escape');
  await expect(inspector).toHaveCount(0);

  await page.getByLabel('Filter by type').fill('risk');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(texts[2]!);
  await expect(rows).toContainText(`Mitigation: ${texts[5]!}`);

  for (const type of ['clarifying_question', 'result']) {
    // "result" as a filter also matches every result envelope; the badge says which is the final one.
    await page.getByLabel('Filter by type').fill(type);
    const row = rows.filter({ has: page.getByTestId('message-type').getByText(type, { exact: true }) });
    await expect(row).toHaveCount(1);
    expect(await whole(row.getByTestId('message-text')), type).toBe(texts.join('\n'));
    if (type !== 'clarifying_question') continue;
    // The question's Reply fills the say box with a mention of the asker, as text.
    await row.getByRole('button', { name: `Reply to ${AGENT}’s question` }).click();
    await expect(page.getByLabel('Say in the room')).toHaveValue(`@${AGENT} `);
    await page.getByLabel('Say in the room').fill('');
  }

  // http(s) links with something hostile inside: a link, to exactly that URL, opened without
  // opener or referrer, its real host beside it, its label as text.
  await page.getByLabel('Filter by type').fill('artifact_link');
  await expect(rows).toHaveCount(HOSTILE_HTTP_LINKS.length);
  for (const [i, link] of HOSTILE_HTTP_LINKS.entries()) {
    const row = rows.filter({ has: page.getByRole('link', { name: texts[i]!, exact: true }) });
    const a = row.getByRole('link', { name: texts[i]!, exact: true });
    await expect(a).toHaveAttribute('href', link.url);
    await expect(a).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(a).toHaveAttribute('target', '_blank');
    await expect(row).toContainText(`(${link.host})`);
  }
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expectNothingRan();
});

test('a link that is not http(s) never becomes one: the gateway refuses it, and says why in words', async () => {
  const ids: string[] = [];
  for (const url of NON_HTTP_LINKS) ids.push(await candidate('artifact_link', { url, label: 'open me' }));
  // Raw JSON that tries prototype pollution, and a message type that is a payload.
  const proto = `{"id":"msg_proto_${Date.now()}","type":"result","room_id":"${ROOM}","from":{"kind":"agent","id":${JSON.stringify(AGENT)}},"ts":${Math.floor(Date.now() / 1000)},"payload":{"task_id":"${taskId}","message_type":"progress","content":{"text":"x","__proto__":{"__pwned":70}}}}`;
  await agent.client.publishAsync(`rooms/${ROOM}/public_candidates`, proto, { qos: 1 });
  const oddType = await candidate('<img src=x onerror=window.__pwned=71>', { text: '<svg onload=window.__pwned=72>' });

  const log = page.getByTestId('control-event');
  // Each reject by the id of the message it refuses: the text names messages, never by id.
  const rejectOf = (id: string) => page.locator(`[data-testid="control-event"][data-about-message-id="${id}"]`);
  for (const [i, id] of ids.entries()) {
    await expect(rejectOf(id), NON_HTTP_LINKS[i]).toContainText('the message was malformed (not a valid AOR envelope)');
  }
  await expect(log.filter({ hasText: '__proto__' })).toContainText(
    'Rejected a message: the message was malformed (not a valid AOR envelope) (Object key "__proto__" is repeated or forbidden.)',
  );
  await expect(rejectOf(oddType)).toContainText('the message was malformed');
  // None reached public: the public timeline has no row for them, and no link anywhere is anything but http(s).
  await filterText('open me');
  await expect(page.getByText('Nothing here matches the filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expectNothingRan();
});

test('in review mode the queue shows the payloads as text too', async () => {
  const box = page.getByRole('checkbox', { name: /Review mode/ });
  await box.click();
  await page.getByRole('button', { name: 'Turn on review mode' }).click();
  await expect(box).toBeChecked();
  const texts = INJECTION_CORPUS.map((p) => p.text);
  await candidate('progress', { text: texts[2]! });
  await candidate('artifact_link', { url: HOSTILE_HTTP_LINKS[0]!.url, label: texts[3]! });
  await candidate('finding', { bullets: texts.slice(0, 8) });
  const queue = page.getByRole('list', { name: 'Candidates waiting for review' });
  await expect(queue.getByTestId('review-item')).toHaveCount(3);
  await expect(queue.getByTestId('review-item').nth(0)).toContainText(texts[2]!);
  await expect(queue.getByRole('link', { name: texts[3]!, exact: true })).toHaveAttribute('rel', 'noopener noreferrer');
  expect(await queue.getByTestId('review-item').nth(2).locator('li').allTextContents()).toEqual(texts.slice(0, 8));
  await expectNothingRan();
  // Turning review mode off asks what becomes of the three waiting: released, they never reach public.
  await box.click();
  await page
    .getByRole('dialog', { name: '3 candidates wait for review' })
    .getByRole('button', { name: 'Release all 3 undecided and turn off' })
    .click();
  await expect(box).not.toBeChecked();
});

test('after a reload the same payloads come from history, still as text', async () => {
  await page.reload();
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  await page.getByLabel('Filter by type').fill('finding');
  const rows = page.getByTestId('public-message');
  await expect(rows).toHaveCount(1);
  expect(await rows.locator('li').allTextContents()).toEqual(INJECTION_CORPUS.map((p) => p.text));
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expectNothingRan();
});

test('canary: the detectors above do fire when something is injected', async () => {
  expectConsoleErrors(/Content Security Policy/, /no-such-image/);
  // Markup put into the DOM the unsafe way: the CSP blocks its inline handler and reports it,
  // and the DOM scan sees the element and the handler attribute.
  await page.evaluate(() =>
    document.body.insertAdjacentHTML('beforeend', '<img id="canary" src="/no-such-image" onerror="window.__pwned=99">'),
  );
  await expect.poll(async () => (await inspectPage(page)).csp.length).toBeGreaterThan(0);
  const report = await inspectPage(page);
  expect(report.pwned).toBeUndefined();
  expect(report.handlers).toContain('<img onerror="window.__pwned=99">');
  expect(report.dangerous.some((h) => h.includes('canary'))).toBe(true);
  await page.evaluate(() => alert('canary'));
  expect(dialogs).toEqual(['alert: canary']);
});
