// /api/directory/imports through the real app, on SQLite and on PostgreSQL, against a real HTTP
// server on loopback serving Agent Cards (decisions-mcp.md §9–§11). Loopback is reached here the
// way a local setup reaches it, with ALLOW_PRIVATE_SERVICE_URLS=1 (the fetcher's allowPrivate);
// the refusal of private addresses is checked with the default fetcher, whose guard is on.
import type { lookup } from 'node:dns/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImportDone, ImportedAgentList } from '@shared/contract/directory-imports';
import { systemClock } from '../clock';
import { RelayBridge } from '../external/relay-bridge';
import { ServiceFetcher } from '../external/service-fetcher';
import type { HttpLimits } from '../http/limits';
import { openPgStore } from '../store/pg/pg-store';
import type { Store } from '../store/store';
import { sampleCard, startCardServer, type CardServer } from '../test-support/card-server';
import { usePgDatabase } from '../test-support/pg-database';
import { sessionCookie } from '../test-support/sessions';
import { tempStore } from '../test-support/temp-store';
import { testApp } from '../test-support/test-app';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const OBSERVER = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';

const pg = usePgDatabase();
const engines: readonly [string, () => Promise<{ store: Store; dispose: () => Promise<void> }>][] = [
  [
    'SQLite',
    async () => {
      const temp = tempStore();
      return { store: temp.store, dispose: () => temp.dispose() };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      await pg.reset();
      const store = await openPgStore({ url: await pg.url() });
      return { store, dispose: () => store.close() };
    },
  ],
];

const json = (value: unknown) => ({ body: JSON.stringify(value) });

describe.each(engines)('/api/directory/imports on %s', (_engine, open) => {
  let cards: CardServer;
  let store: Store;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    cards = await startCardServer({
      '/travel.json': json(sampleCard('Travel planner', { unknownField: { deep: true }, signatures: ['x'] })),
      '/hostile.json': json(
        sampleCard('<img src=x onerror=alert(1)>', { description: '<script>alert(1)</script>\u202Egnp.exe' }),
      ),
      '/no-skills.json': json({
        name: 'Half a card',
        description: 'no skills',
        version: '1',
        url: 'https://x.example',
      }),
      '/html': { body: '<html><script>alert(1)</script></html>', contentType: 'text/html' },
      '/huge.json': json(sampleCard('Huge', { description: 'x'.repeat(300 * 1024) })),
      '/declared-huge.json': { body: '{}', headers: { 'content-length': String(10 * 1024 * 1024) } },
      '/moved': { status: 302, body: '', headers: { location: '/travel.json' } },
    });
    ({ store, dispose } = await open());
  });
  afterEach(async () => {
    await cards.close();
    await dispose();
  });

  async function setup(options: { guard?: boolean; limits?: Partial<HttpLimits>; lookup?: typeof lookup } = {}) {
    const outbound = new ServiceFetcher({
      allowPrivate: !options.guard,
      timeoutMs: 5_000,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    const bridge = new RelayBridge({ store, clock: systemClock, outbound });
    const app = testApp({ store, bridge, ...(options.limits ? { limits: options.limits } : {}) });
    const facilitator = await sessionCookie(store, FACILITATOR, 'facilitator');
    const observer = await sessionCookie(store, OBSERVER, 'observer');
    const call = (method: string, path: string, cookie: string, body?: unknown, origin = 'http://localhost') =>
      app.request(`http://localhost/api/directory/imports${path}`, {
        method,
        headers: {
          cookie,
          ...(origin ? { origin } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const importUrl = (url: string, cookie = facilitator) => call('POST', '', cookie, { url });
    const audit = async () =>
      (await store.access.listActivity({ kind: 'agent', limit: 50 })).map((e) => ({
        action: e.action,
        actor: e.actorDid,
        details: e.details,
      }));
    return { call, importUrl, facilitator, observer, audit };
  }

  it('imports a card: stored with its skills, unknown fields dropped, listed for observers, audited', async () => {
    const { call, importUrl, observer, audit } = await setup();
    const res = await importUrl(`${cards.url}/travel.json`);
    expect(res.status).toBe(201);
    const { agent, refreshed } = ImportDone.parse(await res.json());
    expect(refreshed).toBe(false);
    expect(agent).toMatchObject({
      url: `${cards.url}/travel.json`,
      name: 'Travel planner',
      importedBy: FACILITATOR,
    });
    expect(agent.card.skills.map((s) => [s.name, s.tags])).toEqual([
      ['Book a flight', ['travel', 'flights']],
      ['Find a hotel', ['travel', 'hotels']],
    ]);
    expect(agent.card).not.toHaveProperty('unknownField');
    expect(agent.card).not.toHaveProperty('signatures');
    expect(agent.card.provider).toEqual({ organization: 'Example Travel', url: 'https://travel.example' });

    const list = await call('GET', '', observer);
    expect(list.status).toBe(200);
    const { imports, maxImports } = ImportedAgentList.parse(await list.json());
    expect(imports).toEqual([agent]);
    expect(maxImports).toBe(500);
    expect(await audit()).toEqual([
      {
        action: 'agent.import',
        actor: FACILITATOR,
        details: {
          agentId: agent.id,
          name: 'Travel planner',
          url: `${cards.url}/travel.json`,
          refreshed: false,
          skills: 2,
        },
      },
    ]);
    expect(cards.requests).toEqual(['GET /travel.json']);
  });

  it('keeps hostile text as the text it is: nothing is escaped, dropped or interpreted on the way in', async () => {
    const { importUrl } = await setup();
    const res = await importUrl(`${cards.url}/hostile.json`);
    expect(res.status).toBe(201);
    const { agent } = ImportDone.parse(await res.json());
    expect(agent.name).toBe('<img src=x onerror=alert(1)>');
    expect(agent.card.description).toBe('<script>alert(1)</script>\u202Egnp.exe');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('refuses what is not a card with CARD_INVALID, saying which field, and stores nothing', async () => {
    const { call, importUrl, facilitator, audit } = await setup();
    const missing = await importUrl(`${cards.url}/no-skills.json`);
    expect(missing.status).toBe(422);
    const body = (await missing.json()) as { code: string; message: string; details: { issues: { path: string }[] } };
    expect(body.code).toBe('CARD_INVALID');
    expect(body.details.issues.map((i) => i.path)).toContain('skills');
    expect(body.message).toMatch(/not an A2A Agent Card/);

    const html = await importUrl(`${cards.url}/html`);
    expect(html.status).toBe(422);
    expect(await html.json()).toMatchObject({ code: 'CARD_INVALID', details: { reason: 'not_json' } });

    expect(ImportedAgentList.parse(await (await call('GET', '', facilitator)).json()).imports).toEqual([]);
    expect(await audit()).toEqual([]);
  });

  it('refuses an answer over the card cap with CARD_TOO_LARGE, streamed or declared', async () => {
    const { importUrl } = await setup();
    for (const path of ['/huge.json', '/declared-huge.json']) {
      const res = await importUrl(`${cards.url}${path}`);
      expect(res.status, path).toBe(502);
      expect(await res.json(), path).toMatchObject({ code: 'CARD_TOO_LARGE' });
    }
    expect(await store.agentImports.countImports()).toBe(0);
  });

  it('says CARD_UNREACHABLE for a 404, a redirect (not followed) and a port nobody listens on', async () => {
    const { importUrl } = await setup();
    const missing = await importUrl(`${cards.url}/nothing-here.json`);
    expect(missing.status).toBe(502);
    expect(await missing.json()).toMatchObject({
      code: 'CARD_UNREACHABLE',
      details: { reason: 'status', status: 404 },
    });
    const moved = await importUrl(`${cards.url}/moved`);
    expect(await moved.json()).toMatchObject({ code: 'CARD_UNREACHABLE', details: { reason: 'redirect' } });
    expect(cards.requests).not.toContain('GET /travel.json');
    const closed = await startCardServer();
    const gone = closed.url;
    await closed.close();
    const down = await importUrl(`${gone}/card.json`);
    expect(down.status).toBe(502);
    expect(await down.json()).toMatchObject({ code: 'CARD_UNREACHABLE' });
    expect(await store.agentImports.countImports()).toBe(0);
  });

  it('with the guard on, refuses loopback and private addresses with CARD_URL_NOT_PUBLIC and fetches nothing', async () => {
    const { importUrl } = await setup({ guard: true });
    const port = new URL(cards.url).port;
    for (const url of [
      `${cards.url}/travel.json`,
      `http://localhost:${port}/travel.json`,
      `http://[::1]:${port}/travel.json`,
      `http://[::ffff:127.0.0.1]:${port}/travel.json`,
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/card.json',
    ]) {
      const res = await importUrl(url);
      expect(res.status, url).toBe(400);
      expect(await res.json(), url).toMatchObject({
        code: 'CARD_URL_NOT_PUBLIC',
        details: { reason: 'url_not_public' },
      });
    }
    expect(cards.requests).toEqual([]);
    expect(await store.agentImports.countImports()).toBe(0);
  });

  it('checks the address again when connecting: a name that turns into 127.0.0.1 after the check is never fetched', async () => {
    let calls = 0;
    const rebinding = (async () =>
      calls++ === 0
        ? [{ address: '93.184.216.34', family: 4 }]
        : [{ address: '127.0.0.1', family: 4 }]) as unknown as typeof lookup;
    const { importUrl } = await setup({ guard: true, lookup: rebinding });
    const res = await importUrl(`http://cards.example:${new URL(cards.url).port}/travel.json`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'CARD_URL_NOT_PUBLIC' });
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(cards.requests).toEqual([]);
  });

  it('refuses a URL that is not http(s), or carries credentials or a fragment, before fetching', async () => {
    const { importUrl } = await setup();
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/card',
      `http://u:p@127.0.0.1/x`,
      `${cards.url}/a#b`,
      'nonsense',
    ]) {
      const res = await importUrl(url);
      expect(res.status, url).toBe(400);
      expect(await res.json(), url).toMatchObject({ code: 'INVALID_REQUEST', details: { reason: 'url_invalid' } });
    }
    expect(cards.requests).toEqual([]);
  });

  it('imports a URL again as a refresh: one row, the new card, the first import kept; a bad refresh changes nothing', async () => {
    const { importUrl, audit } = await setup();
    const first = ImportDone.parse(await (await importUrl(`${cards.url}/travel.json`)).json()).agent;
    cards.routes['/travel.json'] = json(sampleCard('Travel planner 2', { skills: [] }));
    const again = await importUrl(`${cards.url}/travel.json`);
    expect(again.status).toBe(200);
    const refreshed = ImportDone.parse(await again.json());
    expect(refreshed.refreshed).toBe(true);
    expect(refreshed.agent).toMatchObject({ id: first.id, importedAt: first.importedAt, name: 'Travel planner 2' });
    expect(refreshed.agent.card.skills).toEqual([]);

    cards.routes['/travel.json'] = { body: 'not json' };
    expect((await importUrl(`${cards.url}/travel.json`)).status).toBe(422);
    expect(await store.agentImports.listImports()).toEqual([
      expect.objectContaining({ id: first.id, name: 'Travel planner 2' }),
    ]);
    expect((await audit()).map((e) => [e.action, e.details.refreshed])).toEqual([
      ['agent.import', true],
      ['agent.import', false],
    ]);
  });

  it('removes an import, audited; a second removal is 404', async () => {
    const { call, importUrl, facilitator, audit } = await setup();
    const { agent } = ImportDone.parse(await (await importUrl(`${cards.url}/travel.json`)).json());
    const removed = await call('DELETE', `/${agent.id}`, facilitator);
    expect(removed.status).toBe(204);
    expect(await store.agentImports.countImports()).toBe(0);
    expect((await call('DELETE', `/${agent.id}`, facilitator)).status).toBe(404);
    expect((await audit())[0]).toEqual({
      action: 'agent.import_remove',
      actor: FACILITATOR,
      details: { agentId: agent.id, name: 'Travel planner', url: `${cards.url}/travel.json` },
    });
  });

  it('lets observers read but not import or remove (403), and refuses a write without the Origin check (CSRF)', async () => {
    const { call, importUrl, facilitator, observer } = await setup();
    const refused = await importUrl(`${cards.url}/travel.json`, observer);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect(cards.requests).toEqual([]);
    const { agent } = ImportDone.parse(await (await importUrl(`${cards.url}/travel.json`)).json());
    expect((await call('DELETE', `/${agent.id}`, observer)).status).toBe(403);
    expect((await call('GET', '', observer)).status).toBe(200);
    const crossSite = await call('POST', '', facilitator, { url: `${cards.url}/travel.json` }, 'https://evil.example');
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ code: 'CSRF_REJECTED' });
    expect(await store.agentImports.countImports()).toBe(1);
  });

  it('bounds imports per facilitator (429) and caps the body (413)', async () => {
    const { call, importUrl, facilitator } = await setup({
      limits: { importsPerDid: { capacity: 2, refillPerSecond: 1 / 3600 } },
    });
    expect((await importUrl(`${cards.url}/travel.json`)).status).toBe(201);
    expect((await importUrl(`${cards.url}/travel.json`)).status).toBe(200);
    const limited = await importUrl(`${cards.url}/travel.json`);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    const big = await call('POST', '', facilitator, { url: `${cards.url}/${'a'.repeat(8 * 1024)}` });
    expect(big.status).toBe(413);
  });
});
