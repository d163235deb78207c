// HTTP budgets: rate limits per address and per verified DID on sign-in, enrollment and
// the relay's POST /events (a fake clock moves the buckets; nothing sleeps); the long-poll cap
// per address and the wait clamp; a client that never reads its responses; an oversize frame on
// the console's /mqtt WebSocket.
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { draft, party } from '@shared/agora/test-support/fixtures';
import type { MessageType, UnsignedEnvelope } from '@shared/agora/envelope';
import { signEnvelope } from '@shared/agora/sign-envelope';
import { randomToken, tokenHash } from '../auth/tokens';
import { parseTrustedProxies } from '../http/client-address';
import { UNLIMITED_HTTP_LIMITS, type HttpLimits } from '../http/limits';
import { MAX_PACKET_BYTES } from '../mqtt/broker-listeners';
import { challengeDocument } from '../routes/auth';
import { MAX_POLL_TIMEOUT_S, pollTimeoutMs } from '../routes/events';
import { fullApp, type FullApp } from '../test-support/full-app';
import { operatorKey } from '../test-support/operator-key';

let f: FullApp | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const start = async (limits: Partial<HttpLimits>) =>
  (f = await fullApp({ limits: { ...UNLIMITED_HTTP_LIMITS, ...limits } }));
/** Hono's node adapter reads the peer address from env.incoming (http/rate-limit.ts clientAddress). */
const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
const perMinute = (n: number) => ({ capacity: n, refillPerSecond: n / 60 });
const body = async (res: Response) =>
  (await res.json()) as { code?: string; ok?: boolean; details?: { retryAfterSeconds?: number } };

async function signIn(
  app: FullApp['app'],
  key: ReturnType<typeof operatorKey>,
  address = '10.0.0.1',
  path = '/api/auth/login',
  extra: Record<string, string> = {},
) {
  const challenge = (await (await app.request('/api/auth/challenge', {}, from(address))).json()) as {
    challenge: { nonce: string; expiresAt: number };
  };
  const signature = key.sign(challengeDocument(challenge.challenge.nonce, challenge.challenge.expiresAt));
  return app.request(
    path,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ did: key.did, nonce: challenge.challenge.nonce, signature, ...extra }),
    },
    from(address),
  );
}

let unique = 0;
function envelope(type: MessageType, sender = party(1), now = f!.clock.now()) {
  unique++;
  return JSON.stringify(
    signEnvelope(
      draft(type, {
        from: sender,
        to: party(2),
        id: `msg_limit_${unique}`,
        ts: now,
        thread: `thr_limit_${unique}`,
        meta: { ttl: 3600, hop: 0 },
      }) as UnsignedEnvelope,
      sender.secretKey,
    ),
  );
}
const postEvent = (text: string, address = '10.0.0.1') =>
  f!.app.request(
    '/events',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: text },
    from(address),
  );

describe('rate limits on sign-in and enrollment', () => {
  it('limits challenges per client address: 429 RATE_LIMITED with Retry-After, another address unaffected, refilled by the clock', async () => {
    const { app, clock } = await start({ authChallengesPerAddress: perMinute(3) });
    for (let i = 0; i < 3; i++)
      expect((await app.request('/api/auth/challenge', {}, from('10.0.0.1'))).status).toBe(200);
    const refused = await app.request('/api/auth/challenge', {}, from('10.0.0.1'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('20');
    expect((await body(refused)).code).toBe('RATE_LIMITED');
    expect((await app.request('/api/auth/challenge', {}, from('10.0.0.2'))).status).toBe(200);
    clock.advance(20_000);
    expect((await app.request('/api/auth/challenge', {}, from('10.0.0.1'))).status).toBe(200);
  });

  it('an address that fails sign-ins cannot lock out an operator signing in correctly from the same address (decisions-server.md §42)', async () => {
    const { app, clock, harness } = await start({ authPerAddress: perMinute(3) });
    const operator = operatorKey();
    await harness.store.access.putOperator({ did: operator.did, role: 'facilitator', createdAt: clock.now() });
    // Another client on the operator's own address (127.0.0.1 for every local user) fails on purpose.
    const attacker = operatorKey();
    const failures: number[] = [];
    for (let i = 0; i < 6; i++)
      failures.push((await signIn(app, { ...attacker, did: operator.did }, '127.0.0.1')).status);
    expect(failures).toEqual([401, 401, 401, 429, 429, 429]);
    const malformed = await app.request(
      '/api/auth/login',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
      from('127.0.0.1'),
    );
    expect(malformed.status).toBe(429);
    expect(malformed.headers.get('retry-after')).not.toBeNull();
    // The operator, from the same address, still gets a challenge and a session.
    const signedIn = await signIn(app, operator, '127.0.0.1');
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('set-cookie')).toMatch(/sb_session=/);
  });

  it('limits sessions opened per DID once its signature verifies; a forged claim of that DID spends nothing', async () => {
    const { app, clock, harness } = await start({ authPerDid: perMinute(2) });
    const victim = operatorKey();
    const other = operatorKey();
    for (const key of [victim, other])
      await harness.store.access.putOperator({ did: key.did, role: 'observer', createdAt: clock.now() });
    // An attacker, from many addresses, claims the victim's DID without its key.
    const impostor = operatorKey();
    for (let i = 0; i < 5; i++) {
      const forged = await signIn(app, { ...impostor, did: victim.did }, `10.9.0.${i}`);
      expect((await body(forged)).code).toBe('SIGNATURE_INVALID');
    }
    expect((await signIn(app, victim, '10.0.0.1')).status).toBe(200);
    expect((await signIn(app, victim, '10.0.0.2')).status).toBe(200);
    const third = await signIn(app, victim, '10.0.0.3');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('30');
    expect((await body(third)).code).toBe('RATE_LIMITED');
    expect(third.headers.get('set-cookie')).toBeNull();
    expect((await signIn(app, other, '10.0.0.3')).status).toBe(200);
    clock.advance(30_000);
    expect((await signIn(app, victim, '10.0.0.1')).status).toBe(200);
  });

  it('limits enrollment per DID the same way, without burning the enrollment token', async () => {
    const { app, harness, clock } = await start({ authPerDid: perMinute(1) });
    const key = operatorKey();
    await harness.store.access.putOperator({ did: key.did, role: 'observer', createdAt: clock.now() });
    expect((await signIn(app, key)).status).toBe(200);
    const token = randomToken();
    await harness.store.access.createEnrollment(tokenHash(token), 'facilitator', clock.now() + 3_600_000);
    const refused = await signIn(app, key, '10.0.0.1', '/api/auth/enroll', { token });
    expect(refused.status).toBe(429);
    expect((await body(refused)).code).toBe('RATE_LIMITED');
    clock.advance(60_000);
    const enrolled = await signIn(app, key, '10.0.0.1', '/api/auth/enroll', { token });
    expect(enrolled.status).toBe(200);
    expect(((await enrolled.json()) as { role: string }).role).toBe('facilitator');
  });
});

describe('TRUST_PROXY (decisions-server.md §77)', () => {
  it('keys each client behind a trusted proxy by its X-Forwarded-For hop, and ignores the header from anyone else', async () => {
    f = await fullApp({
      limits: { ...UNLIMITED_HTTP_LIMITS, authChallengesPerAddress: perMinute(2) },
      extra: { trustProxy: parseTrustedProxies('127.0.0.1')! },
    });
    const { app } = f;
    const challenge = async (proxy: string, forwardedFor: string) =>
      (await app.request('/api/auth/challenge', { headers: { 'x-forwarded-for': forwardedFor } }, from(proxy))).status;
    expect(await challenge('127.0.0.1', '198.51.100.1')).toBe(200);
    expect(await challenge('127.0.0.1', '198.51.100.1')).toBe(200);
    expect(await challenge('127.0.0.1', '198.51.100.1')).toBe(429);
    // A client cannot pick a fresh key by writing the header itself: the proxy appends the real hop.
    expect(await challenge('127.0.0.1', '203.0.113.50, 198.51.100.1')).toBe(429);
    // Another client behind the same proxy has its own budget.
    expect(await challenge('127.0.0.1', '198.51.100.2')).toBe(200);
    // From a peer that is not trusted, the header changes nothing.
    expect(await challenge('10.0.0.9', '198.51.100.3')).toBe(200);
    expect(await challenge('10.0.0.9', '198.51.100.4')).toBe(200);
    expect(await challenge('10.0.0.9', '198.51.100.5')).toBe(429);
  });
});

describe('rate limits on the relay (POST /events)', () => {
  it("limits per client address before reading the body, in the relay's error shape", async () => {
    const { clock } = await start({ relayPerAddress: perMinute(2) });
    expect((await postEvent('{not json')).status).toBe(400);
    expect((await postEvent(envelope('REQUEST'))).status).toBe(200);
    const refused = await postEvent(envelope('REQUEST'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await body(refused)).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect((await postEvent(envelope('REQUEST'), '10.0.0.2')).status).toBe(200);
    clock.advance(30_000);
    expect((await postEvent(envelope('REQUEST'))).status).toBe(200);
  });

  it('limits per signer DID across addresses; a forged envelope in its name spends nothing', async () => {
    const { clock, harness } = await start({ relayPerDid: perMinute(2) });
    const signer = party(1);
    const forger = party(9);
    for (let i = 0; i < 4; i++) {
      const forged = JSON.parse(envelope('REQUEST', forger)) as { sender: { id: string } };
      forged.sender.id = signer.did;
      expect((await postEvent(JSON.stringify(forged), `10.8.0.${i}`)).status).toBeGreaterThanOrEqual(400);
    }
    expect((await postEvent(envelope('REQUEST', signer), '10.0.0.1')).status).toBe(200);
    expect((await postEvent(envelope('REQUEST', signer), '10.0.0.2')).status).toBe(200);
    const head = await harness.store.relay.headSeq();
    const refused = await postEvent(envelope('REQUEST', signer), '10.0.0.3');
    expect(refused.status).toBe(429);
    expect(await body(refused)).toMatchObject({ ok: false, code: 'RATE_LIMITED', details: { retryAfterSeconds: 30 } });
    expect(await harness.store.relay.headSeq()).toBe(head);
    expect((await postEvent(envelope('REQUEST', party(3)), '10.0.0.3')).status).toBe(200);
    clock.advance(30_000);
    expect((await postEvent(envelope('REQUEST', signer), '10.0.0.1')).status).toBe(200);
  });
});

/** GET over a real socket from `localAddress` (every 127/8 address is loopback on Linux). */
function poll(
  url: string,
  localAddress: string,
  timeoutS: number,
  cookie?: string,
): { status: Promise<number>; abort: () => void } {
  let req: ReturnType<typeof httpRequest> | undefined;
  const status = new Promise<number>((resolve, reject) => {
    const headers = cookie ? { cookie } : {};
    req = httpRequest(
      `${url}/events?since=cur_0&timeout=${timeoutS}`,
      { localAddress, agent: false, headers },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
  return { status, abort: () => req?.destroy() };
}

describe('long-poll limits', () => {
  it('caps concurrent long-polls per address with a coded 429; another address and a freed slot get in', async () => {
    await start({ longPollsPerAddress: 3 });
    const { url } = await f!.serve();
    const held = [0, 1, 2].map(() => poll(url, '127.0.0.1', 60));
    // Until the three are held, a fourth, non-waiting poll still gets in and leaves again.
    let fourth = 200;
    for (let i = 0; i < 1000 && fourth === 200; i++) fourth = await poll(url, '127.0.0.1', 0).status;
    expect(fourth).toBe(429);
    const res = await fetch(`${url}/events?since=cur_0&timeout=0`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect(await poll(url, '127.0.0.2', 0).status).toBe(200);
    held[0]!.abort();
    await held[0]!.status.catch(() => undefined);
    let freed = 429;
    for (let i = 0; i < 1000 && freed === 429; i++) freed = await poll(url, '127.0.0.1', 0).status;
    expect(freed).toBe(200);
    for (const h of held.slice(1)) {
      h.abort();
      await h.status.catch(() => undefined);
    }
  });

  it('counts an operator session against the operator, not the address other operators share (decisions-server.md §77)', async () => {
    await start({ longPollsPerAddress: 2 });
    const { url } = await f!.serve();
    const held = [0, 1].map(() => poll(url, '127.0.0.1', 60, f!.observer));
    let third = 200;
    for (let i = 0; i < 1000 && third === 200; i++) third = await poll(url, '127.0.0.1', 0, f!.observer).status;
    expect(third).toBe(429);
    // Another operator, and a client without a session, on the same address: their own shares.
    expect(await poll(url, '127.0.0.1', 0, f!.facilitator).status).toBe(200);
    expect(await poll(url, '127.0.0.1', 0).status).toBe(200);
    for (const h of held) {
      h.abort();
      await h.status.catch(() => undefined);
    }
  });

  it("clamps the wait to the spec's 60 s maximum and defaults to 30 s", () => {
    expect(pollTimeoutMs(3600)).toBe(MAX_POLL_TIMEOUT_S * 1000);
    expect(pollTimeoutMs(1e12)).toBe(60_000);
    expect(pollTimeoutMs(undefined)).toBe(30_000);
    expect(pollTimeoutMs(0)).toBe(0);
  });
});

describe('a client that never reads', () => {
  it('stops being read once its responses back up (bounded server memory), and is served in full once it reads', async () => {
    await start({});
    const { server, url } = await f!.serve();
    const port = Number(new URL(url).port);
    let handled = 0;
    server.on('request', () => handled++);
    const serverSide = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const client = connect(port, '127.0.0.1');
    client.pause(); // never reads
    await new Promise((resolve) => client.once('connect', resolve));
    // About 20 MB of answers: several times what the kernel and Node buffer between the two sockets.
    const total = 20_000;
    const one = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    client.write(one.repeat(total));
    const socket = await serverSide;
    for (let i = 0; i < 2000 && !socket.isPaused(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(socket.isPaused()).toBe(true);
    // Paused: what it queued for this client is bounded, and most requests are still unread.
    const queued = socket.writableLength;
    console.log(`slow reader: paused after ${handled} of ${total} pipelined requests, ${queued} bytes queued for it`);
    expect(queued).toBeLessThan(4 * 1024 * 1024);
    expect(handled).toBeLessThan(total);
    // The client reads: every response comes, the server was only waiting.
    client.resume();
    client.on('data', () => undefined);
    for (let i = 0; i < 20_000 && handled < total; i++) await new Promise((r) => setTimeout(r, 5));
    expect(handled).toBe(total);
    client.destroy();
  }, 120_000);
});

describe("the console's /mqtt WebSocket", () => {
  it(`closes the connection on a frame over ${MAX_PACKET_BYTES} bytes (ws maxPayload, 1009)`, async () => {
    await start({});
    const { server, url } = await f!.serve();
    f!.harness.broker.attachWebSocket(server, async () => ({
      kind: 'operator',
      did: 'did:key:z6MkHardeningFacilitator',
      role: 'facilitator',
    }));
    const ws = new WebSocket(`${url.replace('http', 'ws')}/mqtt`, 'mqtt');
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.on('error', () => undefined);
    ws.send(Buffer.alloc(MAX_PACKET_BYTES + 1));
    expect(await closed).toBe(1009);
    // The server is still there.
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });
});
