// The bridge between two consoles: two real servers in this process, each on its own ephemeral port and its own
// SQLite DATA_DIR; B is the external relay and negotiation service of A. The operator of A signs
// (as the browser would) and A forwards byte for byte; A long-polls B and folds what it fetched.
// B is stopped mid-way and restarted on the same port and data dir: A shows it down, then resumes
// from its persisted cursor with nothing lost and nothing stored twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signEnvelope } from '@shared/agora/sign-envelope';
import type { UnsignedEnvelope } from '@shared/agora/envelope';
import { agentA, client, draft } from '@shared/agora/test-support/fixtures';
import { loadConfig } from '../config';
import { NegotiationParty, seededBytes } from '@agents/negotiation/negotiation-client';
import { negotiationIdentity } from '../demo/demo-identity';
import { mulberry32 } from '../demo/prng';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { manualClock } from '../test-support/manual-clock';
import { sessionCookie } from '../test-support/sessions';

const dirs: string[] = [];
const running: RunningSwitchboard[] = [];
const clock = manualClock(Date.parse('2026-05-03T10:00:00Z'));

async function start(dataDir: string, port = 0): Promise<RunningSwitchboard> {
  const sb = await startSwitchboard(
    loadConfig({
      HOST: '127.0.0.1',
      PORT: String(port),
      MQTT_PORT: '0',
      DATA_DIR: dataDir,
      DEMO: '0',
      ALLOW_PRIVATE_SERVICE_URLS: '1',
    }),
    {
      clock,
      bridge: { backoff: { initialMs: 20, maxMs: 200 }, pollTimeoutS: 1, reconcileMs: 50, probeMs: 50 },
    },
  );
  running.push(sb);
  return sb;
}

async function stop(sb: RunningSwitchboard): Promise<void> {
  running.splice(running.indexOf(sb), 1);
  await sb.close();
}

afterEach(async () => {
  for (const sb of running.splice(0)) await sb.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-external-'));
  dirs.push(dir);
  return dir;
};

/** Polls `read` until `done` holds; the bridge is asynchronous by nature (no wall-clock asserts). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 400; i += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await read()).slice(0, 1500)}`);
}

interface ServiceView {
  id: string;
  name: string;
  kind: string;
  builtin: boolean;
  status: { state: string; lastError: string | null };
}
interface ThreadsView {
  threads: {
    id: string;
    status: string;
    untrusted: number;
    source: { id: string; name: string; status: { state: string } };
  }[];
}

function console(sb: RunningSwitchboard, cookie: string) {
  const headers = { cookie, origin: sb.url };
  return {
    get: async <T>(path: string): Promise<T> => (await (await fetch(`${sb.url}${path}`, { headers })).json()) as T,
    post: (path: string, body: string | object) =>
      fetch(`${sb.url}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    services: async () =>
      (await (await fetch(`${sb.url}/api/services`, { headers })).json()) as { services: ServiceView[] },
  };
}

const postDirect = (sb: RunningSwitchboard, envelope: unknown) =>
  fetch(`${sb.url}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(envelope),
  });

const sign = (u: UnsignedEnvelope, key: Uint8Array) => signEnvelope(u, key);

describe('bridging an external relay and negotiation service (two servers)', () => {
  it('runs REQUEST → OFFER → ACCEPT → RESULT across them, through B restarting mid-way, with no loss and no duplicate', async () => {
    const dirB = tempDir();
    let b = await start(dirB);
    const portB = b.http.port;
    const a = await start(tempDir());
    // The operator of A is the Agora client (their key would be in A's browser).
    const operator = console(a, await sessionCookie(a.store, client.did, 'facilitator', clock.now()));

    const added = await operator.post('/api/services', {
      name: 'Partner relay',
      url: `${b.url}/`,
      kind: 'relay',
      readOnly: false,
    });
    expect(added.status).toBe(201);
    const { service } = (await added.json()) as { service: ServiceView };
    const list = await operator.services();
    expect(list.services.map((s) => s.id)).toEqual(['builtin-relay', 'builtin-negotiation', service.id]);

    // REQUEST signed by the operator, sent through A's proxy: B stores exactly the bytes sent.
    const thread = 'thread_ext_1';
    const request = sign(
      draft('REQUEST', { from: client, to: agentA, thread, ts: clock.now(), id: 'msg_req_ext' }) as UnsignedEnvelope,
      client.secretKey,
    );
    const requestText = `{ "sig":${JSON.stringify(request.sig)},${JSON.stringify(request)
      .slice(1)
      .replace(/,"sig":"[^"]+"/, '')}`;
    const sent = await operator.post(`/api/external/${service.id}/events`, requestText);
    expect(sent.status).toBe(200);
    const stored = (await (await fetch(`${b.url}/events?since=cur_0&thread=${thread}&timeout=0`)).json()) as {
      events: unknown[];
    };
    expect(stored.events).toEqual([request]);

    // The agent answers on B directly; A's bridge fetches and verifies it.
    const offer = sign(
      draft('OFFER', { from: agentA, to: client, thread, ts: clock.now(), id: 'msg_offer_ext' }) as UnsignedEnvelope,
      agentA.secretKey,
    );
    expect((await postDirect(b, offer)).status).toBe(200);
    const pending = await until(
      () => operator.get<ThreadsView>('/api/external/threads'),
      (v) => v.threads[0]?.status === 'PENDING' && v.threads.length === 1,
      'the OFFER bridged',
    );
    expect(pending.threads[0]).toMatchObject({
      id: thread,
      untrusted: 0,
      source: { id: service.id, name: 'Partner relay', status: { state: 'up' } },
    });

    // B goes down: the ACCEPT cannot be forwarded (coded), and the settings screen says down.
    await stop(b);
    const accept = sign(
      draft('ACCEPT', {
        from: client,
        to: agentA,
        thread,
        ts: clock.now(),
        id: 'msg_accept_ext',
        payload: { offer_id: 'msg_offer_ext' },
      }) as UnsignedEnvelope,
      client.secretKey,
    );
    const refused = await operator.post(`/api/external/${service.id}/events`, accept);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { reason: 'service_unavailable', service: service.id },
    });
    const down = await until(
      () => operator.services(),
      (v) => v.services.find((s) => s.id === service.id)?.status.state === 'down',
      'B shown down',
    );
    expect(down.services.find((s) => s.id === service.id)?.status.lastError).toBeTruthy();
    expect((await operator.get<ThreadsView>('/api/external/threads')).threads[0]?.source.status.state).toBe('down');

    // B back on the same port and data dir: the retried ACCEPT goes through, the RESULT arrives.
    b = await start(dirB, portB);
    expect((await operator.post(`/api/external/${service.id}/events`, accept)).status).toBe(200);
    const result = sign(
      draft('RESULT', { from: agentA, to: client, thread, ts: clock.now(), id: 'msg_result_ext' }) as UnsignedEnvelope,
      agentA.secretKey,
    );
    expect((await postDirect(b, result)).status).toBe(200);
    const done = await until(
      () => operator.get<ThreadsView>('/api/external/threads'),
      (v) => v.threads[0]?.status === 'COMPLETED',
      'the thread completed',
    );
    expect(done.threads[0]?.source.status.state).toBe('up');

    const detail = await operator.get<{ events: { envelope: { id: string }; trusted: boolean; applied: boolean }[] }>(
      `/api/external/${service.id}/threads/${thread}`,
    );
    expect(detail.events.map((e) => [e.envelope.id, e.trusted, e.applied])).toEqual([
      ['msg_req_ext', true, true],
      ['msg_offer_ext', true, true],
      ['msg_accept_ext', true, true],
      ['msg_result_ext', true, true],
    ]);
    // Each envelope once, though it reached A by two polls (to and from the operator) and across the restart.
    const rows = await a.store.services.listBridged({ serviceId: service.id, limit: 100 });
    // (Stored in arrival order, which depends on which poll answered first.)
    expect(rows.map((r) => r.envelopeId).sort()).toEqual([
      'msg_accept_ext',
      'msg_offer_ext',
      'msg_req_ext',
      'msg_result_ext',
    ]);
  });

  it('refuses writes to a read-only relay, and resumes from the persisted cursor after A itself restarts', async () => {
    const b = await start(tempDir());
    const dirA = tempDir();
    let a = await start(dirA);
    let operator = console(a, await sessionCookie(a.store, client.did, 'facilitator', clock.now()));
    const { service } = (await (
      await operator.post('/api/services', { name: 'Partner relay', url: b.url, kind: 'relay', readOnly: true })
    ).json()) as { service: ServiceView };

    // Read-only: nothing is forwarded.
    const request = sign(
      draft('REQUEST', {
        from: client,
        to: agentA,
        thread: 'thread_ro',
        ts: clock.now(),
        id: 'msg_req_ro',
      }) as UnsignedEnvelope,
      client.secretKey,
    );
    const refused = await operator.post(`/api/external/${service.id}/events`, request);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'SERVICE_READ_ONLY', details: { reason: 'service_read_only' } });
    expect((await postDirect(b, request)).status).toBe(200);
    await until(
      () => operator.get<ThreadsView>('/api/external/threads'),
      (v) => v.threads.length === 1,
      'the REQUEST bridged',
    );

    // A stops; B takes an OFFER meanwhile; A restarts on its data dir and picks it up from its cursor.
    await stop(a);
    const offer = sign(
      draft('OFFER', {
        from: agentA,
        to: client,
        thread: 'thread_ro',
        ts: clock.now(),
        id: 'msg_offer_ro',
      }) as UnsignedEnvelope,
      agentA.secretKey,
    );
    expect((await postDirect(b, offer)).status).toBe(200);
    a = await start(dirA);
    operator = console(a, await sessionCookie(a.store, client.did, 'facilitator', clock.now()));
    // The REQUEST's poll (from the operator) kept its place across the restart.
    expect(await a.store.services.getCursor(service.id, `sender:${client.did}`)).toMatch(/^cur_[1-9]\d*$/);
    await until(
      () => operator.get<ThreadsView>('/api/external/threads'),
      (v) => v.threads[0]?.status === 'PENDING',
      'the OFFER bridged after A restarted',
    );
    expect((await a.store.services.listBridged({ limit: 100 })).map((r) => r.envelopeId).sort()).toEqual([
      'msg_offer_ro',
      'msg_req_ro',
    ]);
  });
});

describe('negotiating through an external service', () => {
  it('opens, counters and agrees on B through A’s proxy, byte for byte, and lists it verified', async () => {
    const dirB = tempDir();
    let b = await start(dirB);
    const portB = b.http.port;
    const a = await start(tempDir());
    const rng = mulberry32(11);
    const buyerIdentity = negotiationIdentity(3, 'buyer', 'Buyer');
    const operator = console(a, await sessionCookie(a.store, buyerIdentity.did, 'facilitator', clock.now()));
    const { service } = (await (
      await operator.post('/api/services', { name: 'Partner deals', url: b.url, kind: 'negotiation', readOnly: false })
    ).json()) as { service: ServiceView };

    // The operator's documents go through A (cookie and Origin as the browser sends them).
    const cookie = await sessionCookie(a.store, buyerIdentity.did, 'facilitator', clock.now());
    const buyer = new NegotiationParty(
      buyerIdentity,
      (input, init) =>
        fetch(`${a.url}/api/external/${service.id}${input}`, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), cookie, origin: a.url },
        }),
      '',
      () => clock.now(),
      seededBytes(rng),
    );
    const seller = new NegotiationParty(
      negotiationIdentity(3, 'seller', 'Seller'),
      (input, init) => fetch(input, init),
      b.url,
      () => clock.now(),
      seededBytes(rng),
    );

    const id = await buyer.open(seller.did, { category: 'pricing', mine: 'public', theirs: 'public' });
    await buyer.propose(id, { price_per_call_eur: '0.0030' }, 30 * 60_000);
    await seller.propose(id, { price_per_call_eur: '0.0045' }, 30 * 60_000);

    // B restarts mid-way; the operator's acceptance waits for it and then goes through.
    const state = await buyer.state(id);
    await stop(b);
    await expect(buyer.accept(id)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const listed = await operator.get<{
      negotiations: { id: string; verified: boolean; source: { status: { state: string } } }[];
    }>('/api/external/negotiations');
    expect(listed.negotiations).toEqual([
      expect.objectContaining({
        id,
        verified: false,
        source: expect.objectContaining({ status: expect.objectContaining({ state: 'down' }) }),
      }),
    ]);
    b = await start(dirB, portB);
    const acceptance = buyer.acceptanceDocument(state);
    const text = JSON.stringify(acceptance, null, 1); // odd whitespace: forwarded unchanged, still accepted
    const accepted = await operator.post(`/api/external/${service.id}/oap/negotiation/${id}/accept`, text);
    expect(accepted.status).toBe(200);
    await seller.cosign(id);

    const after = await operator.get<{
      negotiations: { id: string; verified: boolean; negotiation: { state: string }; source: { name: string } }[];
    }>('/api/external/negotiations');
    expect(after.negotiations).toEqual([
      expect.objectContaining({
        id,
        verified: true,
        negotiation: expect.objectContaining({ state: 'ACCEPTED' }),
        source: expect.objectContaining({ name: 'Partner deals' }),
      }),
    ]);
    // B's history holds the acceptance the operator signed, field for field.
    const detail = (await (await fetch(`${b.url}/oap/negotiation/${id}`)).json()) as {
      history: { type: string; document?: unknown }[];
    };
    expect(detail.history.find((h) => h.type === 'accept')?.document).toEqual(acceptance);
  });
});
