// A facilitator registers a service's base URL, and the server then fetches it (the probe, the
// bridge's long-polls, the proxy): with the default configuration only public addresses may be
// registered or connected to (decisions-server.md §41). A local server counts every request it
// receives: none of the refused URLs may reach it.
import type { lookup } from 'node:dns/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed } from '@shared/crypto/ed25519';
import { testApp } from '../test-support/test-app';
import { loadConfig } from '../config';
import { RelayBridge } from '../external/relay-bridge';
import { ServiceFetcher } from '../external/service-fetcher';
import { startBridge } from '../external/start-bridge';
import { manualClock } from '../test-support/manual-clock';
import { sessionCookie } from '../test-support/sessions';
import { tempStore, type TempStore } from '../test-support/temp-store';
import { startHostileService, type HostileService } from './hostile-service';

let temp: TempStore | undefined;
let counter: HostileService | undefined;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  await counter?.close();
  await temp?.dispose();
  counter = temp = undefined;
});

const clock = manualClock(Date.parse('2026-05-03T10:00:00Z'));

async function setup(bridgeOf?: (t: TempStore) => RelayBridge) {
  temp = tempStore();
  counter = await startHostileService();
  const bridge = bridgeOf?.(temp);
  const app = testApp({ staticDir: '/nonexistent', store: temp.store, clock, ...(bridge ? { bridge } : {}) });
  const cookie = await sessionCookie(
    temp.store,
    encodeDidKey(keyPairFromSeed(new Uint8Array(32).fill(1)).publicKey),
    'facilitator',
    clock.now(),
  );
  const headers = { cookie, origin: 'http://localhost' };
  const register = (url: string, kind: 'relay' | 'negotiation' = 'negotiation') =>
    app.request('http://localhost/api/services', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Service ${url.slice(0, 60)}`, url, kind }),
    });
  return { app, headers, register, port: new URL(counter.url).port };
}

describe('registering a service URL (default configuration: public addresses only)', () => {
  it('refuses loopback, private, link-local, metadata, IPv4-mapped, localhost and file: with a coded 400, and fetches nothing', async () => {
    const { register, port } = await setup();
    const refused = [
      `http://127.0.0.1:${port}`,
      `http://[::1]:${port}`,
      'http://169.254.169.254',
      'http://10.0.0.1',
      'http://172.16.5.4',
      'http://192.168.1.1',
      'http://100.64.0.1',
      'http://0.0.0.0',
      `http://[::ffff:127.0.0.1]:${port}`,
      'http://[fd00::1]',
      'http://[fe80::1]',
      `http://2130706433:${port}`,
      `http://localhost:${port}`,
    ];
    for (const url of refused) {
      const res = await register(url);
      expect(res.status, url).toBe(400);
      expect(await res.json(), url).toMatchObject({ code: 'INVALID_REQUEST', details: { reason: 'url_not_public' } });
    }
    for (const url of ['file:///etc/passwd', 'gopher://127.0.0.1/', 'ftp://10.0.0.1/']) {
      const res = await register(url);
      expect(res.status, url).toBe(400);
      expect(await res.json(), url).toMatchObject({ code: 'INVALID_REQUEST', details: { reason: 'url_invalid' } });
    }
    expect(await temp!.store.services.listServices()).toEqual([]);
    expect(counter!.requests).toEqual([]);
  });

  it('checks the address again at connect time: a name that resolves to public when registered and to 127.0.0.1 afterwards is never connected to', async () => {
    let calls = 0;
    // The first answer (the registration's check) is public; every later one is loopback (DNS rebinding).
    const rebinding = (async () =>
      calls++ === 0
        ? [{ address: '93.184.216.34', family: 4 }]
        : [{ address: '127.0.0.1', family: 4 }]) as unknown as typeof lookup;
    const { app, headers, register, port } = await setup(
      (t) => new RelayBridge({ store: t.store, clock, outbound: new ServiceFetcher({ lookup: rebinding }) }),
    );
    const created = await register(`http://rebind.example:${port}`);
    expect(created.status).toBe(201);
    const { service } = (await created.json()) as {
      service: { id: string; status: { state: string; lastError: string } };
    };
    expect(service.status.state).toBe('down');
    expect(service.status.lastError).toMatch(/not a public address/);
    const proxied = await app.request(`http://localhost/api/external/${service.id}/oap/manifest`, { headers });
    expect(proxied.status).toBe(503);
    expect(await proxied.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { reason: 'url_not_public' } });
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(counter!.requests).toEqual([]);
  });

  it('ALLOW_PRIVATE_SERVICE_URLS=1 lets a local setup register and reach 127.0.0.1', async () => {
    const config = loadConfig({ ALLOW_PRIVATE_SERVICE_URLS: '1' });
    expect(config.allowPrivateServiceUrls).toBe(true);
    const { register, port } = await setup(
      (t) =>
        new RelayBridge({
          store: t.store,
          clock,
          outbound: new ServiceFetcher({ allowPrivate: config.allowPrivateServiceUrls ?? false }),
        }),
    );
    const created = await register(`http://127.0.0.1:${port}`);
    expect(created.status).toBe(201);
    expect(counter!.requests).toContain('GET /oap/manifest');
  });

  it('trusts the administrator: EXTERNAL_SERVICES may name a private address without the allow variable', async () => {
    temp = tempStore();
    counter = await startHostileService();
    const config = loadConfig({ EXTERNAL_SERVICES: `negotiation|Sidecar deals|${counter.url}` });
    expect(config.allowPrivateServiceUrls).toBe(false);
    const bridge = await startBridge(temp.store, clock, config, { reconcileMs: 50, probeMs: 50 });
    stops.push(() => bridge.stop());
    for (let i = 0; i < 200 && !counter.requests.includes('GET /oap/manifest'); i += 1)
      await new Promise((r) => setTimeout(r, 25));
    expect(counter.requests).toContain('GET /oap/manifest');
  });
});

describe('ALLOW_PRIVATE_SERVICE_URLS', () => {
  it('is 0 or 1; anything else is a one-line ConfigError', () => {
    expect(loadConfig({}).allowPrivateServiceUrls).toBe(false);
    expect(loadConfig({ ALLOW_PRIVATE_SERVICE_URLS: '0' }).allowPrivateServiceUrls).toBe(false);
    expect(() => loadConfig({ ALLOW_PRIVATE_SERVICE_URLS: 'yes' })).toThrow(
      /^ALLOW_PRIVATE_SERVICE_URLS must be 0 or 1, got "yes"\.$/,
    );
  });
});
