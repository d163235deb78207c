// The inbox against the real server: real MQTT agents on the embedded broker, the real gateway,
// SQLite, the routes over HTTP. An item appears in the list and on the stream when its cause
// happens and leaves when it is settled; a restart rebuilds the list from the store.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxClaim, InboxList, type InboxItem } from '@shared/contract/inbox';
import { hashPassword } from '../auth/password';
import { loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { openInboxStream } from '../test-support/inbox-stream';
import type { InboxChange } from './inbox-feed';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { sessionCookie } from '../test-support/sessions';
import { NegotiationParty, seededBytes } from '@agents/negotiation/negotiation-client';
import { negotiationIdentity } from '../demo/demo-identity';
import { mulberry32 } from '../demo/prng';
import { AgoraClient } from '@agents/agora/agora-client';
import { carrierPayload, type CarriedMessage } from '@shared/oacop/carrier';
import { demoIdentity } from '../demo/demo-identity';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const SECOND = 'did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2';
const OBSERVER = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';

let sb: RunningSwitchboard;
let dataDir: string;
let facilitator: string;
let second: string;
let observer: string;
let console_: TestClient;
let seq = 0;
const agents: TestClient[] = [];

let deadService: Server;
let deadPort: number;

const config = () =>
  loadConfig({
    PORT: '0',
    MQTT_PORT: '0',
    DATA_DIR: dataDir,
    DEMO: '0',
    EXTERNAL_SERVICES: `relay|Acme relay|http://127.0.0.1:${deadPort}`,
    ALLOW_PRIVATE_SERVICE_URLS: '1',
  });

async function boot() {
  sb = await startSwitchboard(config(), {
    inboxEveryMs: 100,
    bridge: { backoff: { initialMs: 20, maxMs: 100 }, pollTimeoutS: 1, reconcileMs: 50, probeMs: 50 },
  });
  facilitator = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
  second = await sessionCookie(sb.store, SECOND, 'facilitator');
  observer = await sessionCookie(sb.store, OBSERVER, 'observer');
  console_ = await connectClient(sb.url.replace('http', 'ws') + '/mqtt', {
    wsOptions: { headers: { cookie: facilitator, origin: sb.url } },
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-inbox-'));
  // A port nothing listens on until the service test opens it: the bridged relay is down.
  deadService = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"events":[]}'),
  );
  await new Promise<void>((resolve) => deadService.listen(0, '127.0.0.1', resolve));
  deadPort = (deadService.address() as AddressInfo).port;
  await new Promise((resolve) => deadService.close(resolve));
  await boot();
  for (const agentId of ['agent.analyst', 'agent.rogue'])
    await sb.store.access.putAgentCredential({
      agentId,
      passwordHash: await hashPassword('pw'),
      createdAt: Date.now(),
    });
  await sb.store.rooms.ensureRoom({ id: 'ops', name: 'Operations', moderation: 'review' });
  await sb.store.rooms.ensureRoom({ id: 'lab', name: 'Lab', moderation: 'auto' });
});

afterAll(async () => {
  for (const a of agents) await a.client.endAsync(true);
  await console_.client.endAsync(true);
  await sb.close();
  if (deadService.listening) deadService.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (path: string, cookie: string, init: RequestInit = {}) =>
  fetch(sb.url + path, {
    ...init,
    headers: { cookie, origin: sb.url, 'content-type': 'application/json', ...init.headers },
  });

async function list(cookie = facilitator): Promise<InboxList> {
  const res = await api('/api/inbox', cookie);
  expect(res.status).toBe(200);
  return InboxList.parse(await res.json());
}

const nowS = () => Math.floor(Date.now() / 1000);

async function agent(agentId: string): Promise<TestClient> {
  const client = await connectClient(sb.mqttUrl, { username: agentId, password: 'pw' });
  agents.push(client);
  return client;
}

async function grant(agentId: string, task: string, over: { max?: number; expiresIn?: number; room?: string } = {}) {
  const id = `grant_${++seq}`;
  const room = over.room ?? 'ops';
  await console_.client.publishAsync(
    `rooms/${room}/control`,
    JSON.stringify({
      id,
      type: 'mic_grant',
      room_id: room,
      from: { kind: 'user', id: FACILITATOR },
      ts: nowS(),
      payload: {
        task_id: task,
        agent_id: agentId,
        max_messages: over.max ?? 10,
        allowed_message_types: ['progress', 'result', 'clarifying_question'],
        expires_at: nowS() + (over.expiresIn ?? 600),
      },
    }),
    { qos: 1 },
  );
  return id;
}

/** The gateway applies a grant from control on its own turn; the test goes on once it is stored. */
async function grantStored(agentId: string, task: string, room = 'ops') {
  while (!(await sb.store.rooms.getGrant(room, agentId, task))) await new Promise((r) => setTimeout(r, 20));
}

function result(agentId: string, task: string, messageType: string, content: object, room = 'ops') {
  return JSON.stringify({
    id: `cand_${++seq}`,
    type: 'result',
    room_id: room,
    from: { kind: 'agent', id: agentId },
    ts: nowS(),
    payload: { task_id: task, message_type: messageType, content },
  });
}

describe('review items', () => {
  it('appear on the list and the stream when a real agent submits in review mode, and leave when decided', async () => {
    const stream = await openInboxStream(sb.url, facilitator);
    expect(stream.status).toBe(200);
    const first = await stream.until((e) => e.type === 'snapshot');
    expect(first).toBe(stream.events[0]);

    // The task's goal names the item (decisions-web.md §32).
    await console_.client.publishAsync(
      'rooms/ops/agents/agent.analyst/inbox',
      JSON.stringify({
        id: `task_${++seq}`,
        type: 'task',
        room_id: 'ops',
        from: { kind: 'user', id: FACILITATOR },
        ts: nowS(),
        payload: { task_id: 't1', goal: 'Compare the two storage plans' },
      }),
      { qos: 1 },
    );
    await grant('agent.analyst', 't1');
    const analyst = await agent('agent.analyst');
    await grantStored('agent.analyst', 't1');
    await analyst.client.publishAsync(
      'rooms/ops/public_candidates',
      result('agent.analyst', 't1', 'progress', { text: 'Use <b>plan B</b>' }),
      { qos: 1 },
    );

    const upsert = await stream.until((e) => e.type === 'upsert' && e.item.kind === 'review');
    const item = (upsert as { item: InboxItem }).item;
    expect(item).toMatchObject({
      kind: 'review',
      urgency: 'now',
      title: "agent.analyst's progress note on “Compare the two storage plans” waits for review in Operations",
      quote: 'Use <b>plan B</b>',
      href: '/rooms/ops',
      ref: {
        kind: 'review',
        roomId: 'ops',
        agentId: 'agent.analyst',
        taskId: 't1',
        taskGoal: 'Compare the two storage plans',
        messageType: 'progress',
        budgetLeft: 10,
      },
      claim: null,
    });
    expect((await list()).items.map((i) => i.id)).toContain(item.id);
    // Observers read the same list.
    expect((await list(observer)).items.map((i) => i.id)).toContain(item.id);

    const ref = item.ref as Extract<InboxItem['ref'], { kind: 'review' }>;
    // The server-wide feed (what webhooks read) says who settled it.
    const changes: InboxChange[] = [];
    const off = sb.inbox.board.subscribe((change) => changes.push(change));
    const approved = await api(`/api/rooms/ops/review/${ref.candidateId}/approve`, facilitator, { method: 'POST' });
    expect(approved.status).toBe(200);
    const removed = await stream.until((e) => e.type === 'remove' && e.id === item.id);
    expect(removed.type).toBe('remove');
    off();
    expect(changes.find((c) => c.type === 'removed' && c.item.id === item.id)).toMatchObject({
      settledBy: FACILITATOR,
    });
    expect((await list()).items.map((i) => i.id)).not.toContain(item.id);
    stream.close();
  });
});

/** A review item from a fresh candidate of agent.analyst, as the list shows it. */
async function reviewItem(text: string): Promise<InboxItem> {
  const task = `t${++seq}`;
  await grant('agent.analyst', task);
  await grantStored('agent.analyst', task);
  const analyst = agents[0] ?? (await agent('agent.analyst'));
  await analyst.client.publishAsync('rooms/ops/public_candidates', result('agent.analyst', task, 'result', { text }), {
    qos: 1,
  });
  for (;;) {
    const found = (await list()).items.find((i) => i.quote === text);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const claim = (cookie: string, itemId: string, headers: Record<string, string> = {}) =>
  api('/api/inbox/claims', cookie, { method: 'POST', body: JSON.stringify({ itemId }), headers });

describe('claims', () => {
  it('show a facilitator deciding an item to the others, live; a second facilitator gets the holder', async () => {
    const item = await reviewItem('claim me');
    const othersStream = await openInboxStream(sb.url, second);
    const taken = await claim(facilitator, item.id);
    expect(taken.status).toBe(200);
    const held = InboxClaim.parse(await taken.json());
    expect(held).toMatchObject({ did: FACILITATOR, name: 'Operator …sdvktH' });
    expect(held.until).toBeGreaterThan(Date.now());
    const seen = await othersStream.until((e) => e.type === 'upsert' && e.item.id === item.id && e.item.claim !== null);
    expect(seen.type === 'upsert' && seen.item.claim).toEqual(held);
    expect((await list(observer)).items.find((i) => i.id === item.id)?.claim).toEqual(held);

    const bySecond = await claim(second, item.id);
    expect(InboxClaim.parse(await bySecond.json()).did).toBe(FACILITATOR);
    const renewed = InboxClaim.parse(await (await claim(facilitator, item.id)).json());
    expect(renewed.until).toBeGreaterThanOrEqual(held.until);
    othersStream.close();
  });

  it('are a facilitator act behind CSRF, on an item the operator can see', async () => {
    const item = await reviewItem('not yours');
    const byObserver = await claim(observer, item.id);
    expect([byObserver.status, (await byObserver.json()).code]).toEqual([403, 'FORBIDDEN']);
    const crossSite = await claim(facilitator, item.id, { origin: 'https://evil.example' });
    expect([crossSite.status, (await crossSite.json()).code]).toEqual([403, 'CSRF_REJECTED']);
    // An item that no longer waits (decided meanwhile) is nothing to claim: a 204, not an error.
    const unknown = await claim(facilitator, 'review:ops:nope');
    expect([unknown.status, await unknown.text()]).toEqual([204, '']);
    const empty = await claim(facilitator, '');
    expect([empty.status, (await empty.json()).code]).toEqual([400, 'INVALID_REQUEST']);
    const anonymous = await fetch(sb.url + '/api/inbox');
    expect([anonymous.status, (await anonymous.json()).code]).toEqual([401, 'UNAUTHORIZED']);
  });
});

/** Waits until the facilitator's list has an item `match` accepts (or, with `gone`, has none). */
async function listUntil(
  match: (item: InboxItem) => boolean,
  gone = false,
  cookie = facilitator,
): Promise<InboxItem[]> {
  for (;;) {
    const items = (await list(cookie)).items.filter(match);
    if (gone ? items.length === 0 : items.length > 0) return items;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('grants', () => {
  it('about to end appear with their time left, live, and leave when revoked', async () => {
    const stream = await openInboxStream(sb.url, facilitator);
    await grant('agent.analyst', 'short', { expiresIn: 90 });
    const upsert = await stream.until((e) => e.type === 'upsert' && e.item.id === 'grant:ops:agent.analyst:short');
    const item = (upsert as { item: InboxItem }).item;
    expect(item).toMatchObject({
      kind: 'grant',
      urgency: 'soon',
      ref: { kind: 'grant', roomId: 'ops', agentId: 'agent.analyst', grantId: 'short', budgetLeft: 10 },
    });
    expect(item.title).toMatch(/^agent\.analyst's grant in Operations ends in (1|2) min$/);
    expect(item.dueAt).toBe((item.ref as { expiresAt: number }).expiresAt);
    // A grant with time and budget to spare is not there.
    await grant('agent.analyst', 'long', { expiresIn: 3600 });
    await grantStored('agent.analyst', 'long');
    await console_.client.publishAsync(
      'rooms/ops/control',
      JSON.stringify({
        id: `revoke_${++seq}`,
        type: 'mic_revoke',
        room_id: 'ops',
        from: { kind: 'user', id: FACILITATOR },
        ts: nowS(),
        payload: { task_id: 'short', agent_id: 'agent.analyst', reason: 'done' },
      }),
      { qos: 1 },
    );
    await stream.until((e) => e.type === 'remove' && e.id === item.id);
    expect((await list()).items.filter((i) => i.kind === 'grant')).toEqual([]);
    stream.close();
  });

  it('nearly spent appear with the budget left', async () => {
    await grant('agent.analyst', 'budget', { max: 6, room: 'lab' });
    await grantStored('agent.analyst', 'budget', 'lab');
    const analyst = await agent('agent.analyst');
    // Five of six spent: under a fifth left.
    for (let n = 0; n < 5; n++)
      await analyst.client.publishAsync(
        'rooms/lab/public_candidates',
        result('agent.analyst', 'budget', 'progress', { text: 'half' }, 'lab'),
        { qos: 1 },
      );
    const [item] = await listUntil((i) => i.id === 'grant:lab:agent.analyst:budget');
    expect(item).toMatchObject({ urgency: 'now', title: "agent.analyst's grant in Lab has 1 message left" });
  });
});

describe('repeated rejects', () => {
  it('appear once an agent is rejected five times in ten minutes, counted in the summary', async () => {
    const before = (await list()).summary.rejectsLastHour;
    const rogue = await agent('agent.rogue');
    for (let i = 0; i < 4; i++)
      await rogue.client.publishAsync(
        'rooms/ops/public_candidates',
        result('agent.rogue', 'nogrant', 'result', { text: 'spam' }),
        { qos: 1 },
      );
    const four = await list();
    expect(four.items.filter((i) => i.kind === 'rejects')).toEqual([]);
    expect(four.summary.rejectsLastHour).toBe(before + 4);
    await rogue.client.publishAsync(
      'rooms/ops/public_candidates',
      result('agent.rogue', 'nogrant', 'result', { text: 'spam' }),
      { qos: 1 },
    );
    const [item] = await listUntil((i) => i.kind === 'rejects');
    expect(item).toMatchObject({
      id: 'rejects:ops:agent.rogue',
      title: 'agent.rogue: 5 rejects in 10 minutes in Operations',
      ref: { kind: 'rejects', roomId: 'ops', agentId: 'agent.rogue', count: 5 },
    });
  });
});

describe('clarifying questions', () => {
  it('appear when an agent asks the room and leave when a say names the agent', async () => {
    await grant('agent.analyst', 'q', { room: 'lab' });
    await grantStored('agent.analyst', 'q', 'lab');
    const analyst = await agent('agent.analyst');
    const stream = await openInboxStream(sb.url, observer);
    await analyst.client.publishAsync(
      'rooms/lab/public_candidates',
      result('agent.analyst', 'q', 'clarifying_question', { question: 'Which   region?' }, 'lab'),
      { qos: 1 },
    );
    const upsert = await stream.until((e) => e.type === 'upsert' && e.item.kind === 'question');
    const item = (upsert as { item: InboxItem }).item;
    expect(item).toMatchObject({
      urgency: 'now',
      title: 'agent.analyst asks a clarifying question in Lab',
      quote: 'Which region?',
      ref: { kind: 'question', roomId: 'lab', agentId: 'agent.analyst' },
    });
    const say = (text: string) =>
      console_.client.publishAsync(
        'rooms/lab/public',
        JSON.stringify({
          id: `say_${++seq}`,
          type: 'say',
          room_id: 'lab',
          from: { kind: 'user', id: FACILITATOR },
          ts: nowS(),
          payload: { text },
        }),
        { qos: 1 },
      );
    await say('Everyone: hold on');
    await say('@agent.analyst EU, please');
    await stream.until((e) => e.type === 'remove' && e.id === item.id);
    // The first say did not answer it: it was still there when the second came.
    expect(stream.events.filter((e) => e.type === 'remove' && e.id === item.id)).toHaveLength(1);
    stream.close();
  });
});

describe('bridged services', () => {
  it('down appear with the error, and leave once the service answers again', async () => {
    const [item] = await listUntil((i) => i.kind === 'service');
    expect(item).toMatchObject({ urgency: 'soon', title: 'Acme relay is down', href: '/settings/services' });
    expect(item!.quote).not.toBeNull();
    await new Promise<void>((resolve) => deadService.listen(deadPort, '127.0.0.1', resolve));
    await listUntil((i) => i.kind === 'service', true);
    const closed = new Promise((resolve) => deadService.close(resolve));
    deadService.closeAllConnections();
    await closed;
  });
});

describe('co-signatures', () => {
  it("wait for the enrolled operator who is the agreement's party, only in that operator's inbox, until signed", async () => {
    const rng = mulberry32(11);
    const party = (key: string) =>
      new NegotiationParty(negotiationIdentity(7, key, key), fetch, sb.url, () => Date.now(), seededBytes(rng));
    const buyer = party('inbox-buyer');
    const seller = party('inbox-seller');
    const buyerCookie = await sessionCookie(sb.store, buyer.did, 'observer');
    const buyerStream = await openInboxStream(sb.url, buyerCookie);
    const id = await buyer.open(seller.did, { category: 'pricing', mine: 'public', theirs: 'public' });
    await buyer.propose(id, { price_per_call_eur: '0.0030', calls_per_month: 100000 }, 30 * 60_000);
    await seller.accept(id);
    const upsert = await buyerStream.until((e) => e.type === 'upsert' && e.item.kind === 'cosign');
    const item = (upsert as { item: InboxItem }).item;
    expect(item).toMatchObject({
      id: `cosign:${id}:${buyer.did}`,
      urgency: 'soon',
      href: `/negotiations/${id}`,
      ref: {
        kind: 'cosign',
        negotiationId: id,
        party: buyer.did,
        service: null,
        // The subject in words comes with it (decisions-web.md §32).
        category: 'pricing',
        counterparty: seller.did,
        terms: { price_per_call_eur: '0.0030', calls_per_month: 100000 },
      },
    });
    expect(typeof (item.ref as { effectiveFrom?: unknown }).effectiveFrom).toBe('string');
    expect(item.title).toMatch(/^The pricing agreement with did:key:z6Mk….{6} waits for your co-signature$/);
    // Another operator's inbox does not hold it, nor can they claim it.
    expect((await list()).items.some((i) => i.id === item.id)).toBe(false);
    expect((await claim(facilitator, item.id)).status).toBe(204);
    await buyer.cosign(id);
    await buyerStream.until((e) => e.type === 'remove' && e.id === item.id);
    buyerStream.close();
  });
});

describe('slot approvals', () => {
  it('wait once every participant answered the current revision, and leave once the initiator confirms', async () => {
    let n = 0;
    const client = (key: string) =>
      new AgoraClient(
        demoIdentity(5, `inbox-${key}`, key),
        fetch,
        sb.url,
        () => Date.now(),
        () => `${key}-${++n}`,
      );
    const alice = client('alice');
    const bob = client('bob');
    // decisions-server.md §75: a thread reaches the inbox when one of this server's parties is in it.
    await sb.store.access.putOperator({ did: bob.identity.did, role: 'observer', createdAt: Date.now() });
    const send = (from: AgoraClient, to: AgoraClient, message: CarriedMessage) =>
      from.post(
        from.sign('REQUEST', carrierPayload(message, `req_${++n}`) as never, message.threadId, to.identity.did),
      );
    const threadId = 'urn:uuid:0b6f2f0e-0000-4000-8000-00000000abcd';
    const stream = await openInboxStream(sb.url, observer);
    await send(alice, bob, {
      type: 'ProposeCollaboration',
      threadId,
      revision: 1,
      object: { type: 'Event', title: 'Quarterly   planning', duration: 'PT30M' },
      constraints: {
        timeWindow: { start: '2026-12-01T08:00:00Z', end: '2026-12-03T18:00:00Z' },
        participants: [bob.identity.did],
        requiredParticipants: [bob.identity.did],
      },
    });
    await send(bob, alice, {
      type: 'ProposalResponse',
      threadId,
      respondingToRevision: 1,
      status: 'INTERESTED',
      availableSlots: [{ start: '2026-12-01T09:00:00Z', end: '2026-12-01T12:00:00Z' }],
    });
    const upsert = await stream.until((e) => e.type === 'upsert' && e.item.kind === 'slot');
    expect((upsert as { item: InboxItem }).item).toMatchObject({
      id: `slot:${threadId}`,
      urgency: 'soon',
      title: 'A meeting waits for slot approval: 1 answer is in',
      quote: 'Quarterly planning',
      href: `/scheduling/${encodeURIComponent(threadId)}`,
      ref: { kind: 'slot', threadId, revision: 1 },
    });
    await send(alice, bob, {
      type: 'ConfirmCollaboration',
      threadId,
      revision: 2,
      finalSlot: { start: '2026-12-01T10:00:00Z', end: '2026-12-01T10:30:00Z' },
    });
    await stream.until((e) => e.type === 'remove' && e.id === `slot:${threadId}`);
    stream.close();
  });
});

describe('the summary', () => {
  it('counts an agent online once it sends a heartbeat, and the stream hears the change', async () => {
    const stream = await openInboxStream(sb.url, observer);
    const analyst = await agent('agent.analyst');
    await analyst.client.publishAsync(
      'rooms/lab/agents/agent.analyst/heartbeat',
      JSON.stringify({
        id: `hb_${++seq}`,
        type: 'heartbeat',
        room_id: 'lab',
        from: { kind: 'agent', id: 'agent.analyst' },
        ts: nowS(),
        payload: { ts: nowS() },
      }),
      { qos: 1 },
    );
    // A read of the list reads the summary again; the stream is told when it moved.
    while ((await list(observer)).summary.agentsOnline !== 1) await new Promise((r) => setTimeout(r, 20));
    const event = await stream.until((e) => e.type === 'summary' && e.summary.agentsOnline === 1);
    expect(event.type).toBe('summary');
    stream.close();
  });
});

describe('a restart', () => {
  it('rebuilds the list from the store: review, question, grant and reject items come back, claims do not', async () => {
    const waiting = await reviewItem('still here after a restart');
    await claim(facilitator, waiting.id);
    await grant('agent.analyst', 'ending', { expiresIn: 100 });
    await listUntil((i) => i.id === 'grant:ops:agent.analyst:ending');
    const analyst = await agent('agent.analyst');
    await grant('agent.analyst', 'q2', { room: 'lab' });
    await grantStored('agent.analyst', 'q2', 'lab');
    await analyst.client.publishAsync(
      'rooms/lab/public_candidates',
      result('agent.analyst', 'q2', 'clarifying_question', { question: 'Still open?' }, 'lab'),
      { qos: 1 },
    );
    await listUntil((i) => i.quote === 'Still open?');
    const before = (await list()).items.filter((i) => i.kind !== 'service');

    for (const a of agents.splice(0)) await a.client.endAsync(true);
    await console_.client.endAsync(true);
    await sb.close();
    await boot();

    const after = await list();
    const kinds = (items: InboxItem[]) => items.map((i) => `${i.id}|${i.title}`).sort();
    // Grant titles count down; compare the ids and the rest of the words.
    const words = (items: InboxItem[]) => kinds(items).map((k) => k.replace(/ends in .*$/, 'ends'));
    expect(words(after.items.filter((i) => i.kind !== 'service'))).toEqual(words(before));
    expect(after.items.find((i) => i.id === waiting.id)).toMatchObject({
      quote: 'still here after a restart',
      claim: null,
    });
    expect(after.items.some((i) => i.kind === 'rejects' && i.ref.kind === 'rejects' && i.ref.count === 5)).toBe(true);
    expect(after.summary.rejectsLastHour).toBeGreaterThanOrEqual(5);
    // Both rooms had messages within the hour; no agent sent a heartbeat, so none is online.
    expect(after.summary).toMatchObject({ roomsActive: 2, agentsOnline: 0 });
  });
});
