// Two Switchboard instances, one private Mosquitto, one fresh PostgreSQL database
// (decisions-cluster.md): each candidate is decided exactly once across both gateways, a grant's budget holds
// with agents spending through both, a long-poll on one instance wakes for an event POSTed to
// the other, a browser session made on one is valid on the other, and the once-only work runs on
// exactly one instance and moves when that instance goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T0, agentA, client, signed } from '@shared/agora/test-support/fixtures';
import type { BrokerMessage } from '../mqtt/broker-port';
import { agentCandidateTopic } from '../mqtt/dynsec-acls';
import type { RunningSwitchboard } from '../runtime/start-switchboard';
import { startCluster, type Cluster } from '../test-support/cluster-harness';
import { manualClock } from '../test-support/manual-clock';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { usePgDatabase } from '../test-support/pg-database';
import { startPrivateMosquitto, type PrivateMosquitto } from '../test-support/private-mosquitto';
import { sessionCookie } from '../test-support/sessions';

const pg = usePgDatabase();
const FACILITATOR = 'did:key:z6MkClusterFacilitator';
const TS = Math.floor(T0 / 1000);
let mosquitto: PrivateMosquitto;
let cluster: Cluster;
let a: RunningSwitchboard;
let b: RunningSwitchboard;
/** The candidates each instance's shared subscription handed it (its gateway decided those). */
const handed = new Map<RunningSwitchboard, string[]>();

beforeAll(async () => {
  mosquitto = await startPrivateMosquitto();
  // The Agora fixtures are signed at T0: both instances' clocks stand there.
  cluster = await startCluster({ mosquitto, databaseUrl: await pg.url(), instances: 2, clock: () => manualClock(T0) });
  [a, b] = cluster.instances as [RunningSwitchboard, RunningSwitchboard];
  for (const sb of [a, b]) {
    const ids: string[] = [];
    handed.set(sb, ids);
    sb.broker.onMessage('rooms/+/public_candidates', (m: BrokerMessage) => ids.push(messageId(m.payload)), {
      shared: true,
    });
  }
  await a.rooms.create({ id: 'r1', name: 'Cluster room', moderation: 'auto' });
});

afterAll(async () => {
  await cluster?.close();
  await mosquitto?.stop();
});

const messageId = (payload: Uint8Array | string) =>
  (JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(payload)) as { id: string }).id;

/** A console over an instance's /mqtt, as the browser connects: session cookie, same origin. */
const consoleOn = (sb: RunningSwitchboard, cookie: string) =>
  connectClient(sb.url.replace('http', 'ws') + '/mqtt', { wsOptions: { headers: { cookie, origin: sb.url } } });

async function agent(agentId: string): Promise<TestClient & { agentId: string }> {
  const password = await cluster.addAgent(agentId);
  return { agentId, ...(await connectClient(mosquitto.url, { username: agentId, password, clientId: agentId })) };
}

/** Each agent publishes, all at once, the candidate ids that name it (`…_{agentId}_…`). */
async function publishAll(
  clients: (TestClient & { agentId: string })[],
  taskId: string,
  ids: readonly string[],
): Promise<void> {
  await Promise.all(
    clients.flatMap((c) =>
      ids
        .filter((id) => id.includes(`_${c.agentId}_`))
        .map((id) =>
          c.client.publishAsync(agentCandidateTopic('r1', c.agentId), candidate(c.agentId, taskId, id), { qos: 1 }),
        ),
    ),
  );
}

const grant = (agentId: string, taskId: string, max: number) =>
  JSON.stringify({
    id: `g_${agentId}_${taskId}`,
    type: 'mic_grant',
    room_id: 'r1',
    from: { kind: 'user', id: FACILITATOR },
    ts: TS,
    payload: {
      task_id: taskId,
      agent_id: agentId,
      max_messages: max,
      allowed_message_types: ['progress'],
      expires_at: TS + 3600,
    },
  });

const candidate = (agentId: string, taskId: string, id: string) =>
  JSON.stringify({
    id,
    type: 'result',
    room_id: 'r1',
    from: { kind: 'agent', id: agentId },
    ts: TS,
    payload: { task_id: taskId, message_type: 'progress', content: { text: id } },
  });

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every decision in history, per candidate id: approvals (public) and rejects (control). */
async function decisions(ids: readonly string[], via: RunningSwitchboard = a): Promise<Map<string, string[]>> {
  const rows = (await via.store.rooms.listMessages({ roomId: 'r1', limit: 1000 })).messages;
  const out = new Map(ids.map((id) => [id, [] as string[]]));
  for (const row of rows) {
    if (row.topicKind === 'public' && out.has(row.messageId ?? '')) out.get(row.messageId!)!.push('approved');
    if (row.topicKind === 'control' && row.type === 'reject') {
      const about = (
        JSON.parse(new TextDecoder().decode(row.payload)) as { payload: { message_id?: string; reason: string } }
      ).payload;
      if (about.message_id && out.has(about.message_id)) out.get(about.message_id)!.push(`rejected:${about.reason}`);
    }
  }
  return out;
}

const decidedCount = (d: Map<string, string[]>) => [...d.values()].reduce((n, list) => n + list.length, 0);

/** Grants through a facilitator's console on `sb`, and waits until the grant is in the database. */
async function grantThrough(
  sb: RunningSwitchboard,
  facilitator: TestClient,
  agentId: string,
  taskId: string,
  max: number,
) {
  await facilitator.client.publishAsync('rooms/r1/control', grant(agentId, taskId, max), { qos: 1 });
  await until(
    () => sb.store.rooms.getGrant('r1', agentId, taskId),
    (g) => g !== undefined,
  );
}

describe('two instances on one PostgreSQL and one Mosquitto', () => {
  it('decides every candidate exactly once across both gateways; each console sees each approval once', async () => {
    const cookie = await sessionCookie(a.store, FACILITATOR, 'facilitator');
    const [onA, onB] = [await consoleOn(a, cookie), await consoleOn(b, cookie)];
    await Promise.all([onA, onB].map((c) => c.client.subscribeAsync('rooms/r1/public', { qos: 1 })));
    const agents = ['agent.one', 'agent.two', 'agent.three'];
    // The grants go in through B's console; whichever gateway gets a candidate reads them from the database.
    for (const id of agents) await grantThrough(b, onB, id, 'exactly-once', 1000);
    const clients = await Promise.all(agents.map(agent));
    const ids = agents.flatMap((id) => Array.from({ length: 20 }, (_, i) => `c_${id}_${i}`));
    await publishAll(clients, 'exactly-once', ids);
    await until(
      () => decisions(ids),
      (d) => decidedCount(d) >= ids.length,
    );
    // Both took part, and between them they were handed each candidate once (handlers see a
    // candidate once its decision's hand-over is acknowledged, after the decision is stored).
    const handedBoth = () =>
      [a, b].map((sb) => handed.get(sb)!.filter((id) => ids.includes(id))) as [string[], string[]];
    const [byA, byB] = await until(
      async () => handedBoth(),
      ([x, y]) => x.length + y.length >= ids.length,
    );
    expect(byA.length).toBeGreaterThan(0);
    expect(byB.length).toBeGreaterThan(0);
    expect([...byA, ...byB].sort()).toEqual([...ids].sort());
    // A sentinel published by each instance after its decisions: each console has everything by then.
    const sentinel = (n: string) =>
      new TextEncoder().encode(
        JSON.stringify({
          id: n,
          type: 'say',
          room_id: 'r1',
          from: { kind: 'user', id: FACILITATOR },
          ts: TS,
          payload: { text: 'end' },
        }),
      );
    await a.broker.publish('rooms/r1/public', sentinel('z_a'));
    await b.broker.publish('rooms/r1/public', sentinel('z_b'));
    for (const c of [onA, onB])
      await Promise.all([c.until('rooms/r1/public', '"z_a"'), c.until('rooms/r1/public', '"z_b"')]);
    const final = await decisions(ids);
    expect([...final.values()].every((list) => list.length === 1 && list[0] === 'approved')).toBe(true);
    for (const c of [onA, onB]) {
      const seen = c.received
        .filter((m) => m.topic === 'rooms/r1/public')
        .map((m) => messageId(m.payload))
        .filter((id) => ids.includes(id));
      expect(seen.sort()).toEqual([...ids].sort());
    }
    await Promise.all([...clients, onA, onB].map((c) => c.client.endAsync(true)));
  });

  it('never exceeds a budget: agents spending their grants through both gateways get exactly max_messages approved', async () => {
    const cookie = await sessionCookie(b.store, FACILITATOR, 'facilitator');
    const facilitator = await consoleOn(a, cookie);
    const agents = ['agent.four', 'agent.five', 'agent.six'];
    const max = 4;
    for (const id of agents) await grantThrough(a, facilitator, id, 'budget', max);
    const clients = await Promise.all(agents.map(agent));
    const ids = agents.flatMap((id) => Array.from({ length: 12 }, (_, i) => `b_${id}_${i}`));
    await publishAll(clients, 'budget', ids);
    const d = await until(
      () => decisions(ids),
      (v) => decidedCount(v) >= ids.length,
    );
    const handedTo = (sb: RunningSwitchboard) => handed.get(sb)!.filter((id) => ids.includes(id)).length;
    await until(
      async () => handedTo(a) + handedTo(b),
      (n) => n >= ids.length,
    );
    expect(handedTo(a) > 0 && handedTo(b) > 0).toBe(true);
    for (const agentId of agents) {
      const mine = [...d].filter(([id]) => id.startsWith(`b_${agentId}_`)).map(([, list]) => list);
      expect(mine.every((list) => list.length === 1)).toBe(true);
      expect(mine.filter((list) => list[0] === 'approved')).toHaveLength(max);
      expect(await a.store.rooms.getGrant('r1', agentId, 'budget')).toMatchObject({ maxMessages: max, spent: max });
    }
    await Promise.all([...clients, facilitator].map((c) => c.client.endAsync(true)));
  });

  it('wakes a long-poll on instance A for an event POSTed to instance B', async () => {
    const head = await a.store.relay.headSeq();
    const poll = fetch(`${a.url}/events?since=cur_${head}&recipient=${encodeURIComponent(agentA.did)}&timeout=30`);
    while (a.relay.feed.waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const request = signed('REQUEST', { from: client, to: agentA, thread: 'th_cluster_wake' });
    const posted = await fetch(`${b.url}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    expect(posted.status).toBe(200);
    const page = (await (await poll).json()) as { ok: boolean; events: { id: string }[] };
    expect(page.ok).toBe(true);
    expect(page.events.map((e) => e.id)).toEqual([request.id]);
  });

  it("takes at A a cursor B just issued, ahead of A's own feed, at its word: not clamped, nothing lost (decisions-agora.md §36)", async () => {
    const request = signed('REQUEST', { from: client, to: agentA, thread: 'th_cluster_cursor' });
    const posted = (await (
      await fetch(`${b.url}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      })
    ).json()) as { cursor: string };
    const seq = Number(posted.cursor.slice('cur_'.length));
    const fromB = (await (await fetch(`${a.url}/events?since=${posted.cursor}&timeout=0`)).json()) as {
      events: unknown[];
      cursor: string;
    };
    expect(fromB).toMatchObject({ events: [], cursor: posted.cursor });
    const before = (await (await fetch(`${a.url}/events?since=cur_${seq - 1}&timeout=0`)).json()) as {
      events: { id: string }[];
    };
    expect(before.events.map((e) => e.id)).toEqual([request.id]);
    const beyond = (await (await fetch(`${a.url}/events?since=cur_${seq + 1000}&timeout=0`)).json()) as {
      cursor: string;
    };
    expect(beyond.cursor).toBe(posted.cursor);
  });

  it('accepts a browser session minted on A at B, over HTTP and /mqtt; without it B refuses', async () => {
    const cookie = await sessionCookie(a.store, 'did:key:z6MkClusterObserver', 'observer');
    const withCookie = await fetch(`${b.url}/api/rooms`, { headers: { cookie, origin: b.url } });
    expect(withCookie.status).toBe(200);
    expect(((await withCookie.json()) as { rooms: { id: string }[] }).rooms.map((r) => r.id)).toContain('r1');
    expect((await fetch(`${b.url}/api/rooms`, { headers: { origin: b.url } })).status).toBe(401);
    const observer = await consoleOn(b, cookie);
    await observer.client.subscribeAsync('rooms/r1/public', { qos: 1 });
    await a.broker.publish(
      'rooms/r1/public',
      new TextEncoder().encode(
        JSON.stringify({
          id: 'n_obs',
          type: 'say',
          room_id: 'r1',
          from: { kind: 'user', id: FACILITATOR },
          ts: TS,
          payload: { text: 'to every console' },
        }),
      ),
    );
    await observer.until('rooms/r1/public', '"n_obs"');
    await observer.client.endAsync(true);
  });

  it('runs the sweepers and demo agents on exactly one instance, and on the other once it is gone', async () => {
    expect([a.cluster.leading, b.cluster.leading]).toEqual([true, false]);
    await a.close();
    await until(
      async () => b.cluster.leading,
      (leading) => leading,
    );
    expect(a.cluster.leading).toBe(false);
  });

  it('hands every candidate to the remaining instance once the other stopped (it left the shared subscription)', async () => {
    // A was closed by the previous test: the broker must not queue a share for its session.
    const cookie = await sessionCookie(b.store, FACILITATOR, 'facilitator');
    const facilitator = await consoleOn(b, cookie);
    await grantThrough(b, facilitator, 'agent.seven', 'after-stop', 100);
    const [seven] = await Promise.all([agent('agent.seven')]);
    const ids = Array.from({ length: 10 }, (_, i) => `s_${i}`);
    for (const id of ids)
      await seven.client.publishAsync(
        agentCandidateTopic('r1', 'agent.seven'),
        candidate('agent.seven', 'after-stop', id),
        { qos: 1 },
      );
    const d = await until(
      () => decisions(ids, b),
      (v) => decidedCount(v) >= ids.length,
    );
    expect([...d.values()].every((list) => list.length === 1 && list[0] === 'approved')).toBe(true);
    // Handlers see a candidate once the broker acknowledged its decision's hand-over, which comes
    // after the decision is stored (decisions-server.md §35).
    const byB = await until(
      async () => handed.get(b)!.filter((id) => ids.includes(id)),
      (v) => v.length >= ids.length,
    );
    expect(byB.sort()).toEqual([...ids].sort());
    await Promise.all([seven, facilitator].map((c) => c.client.endAsync(true)));
  });
});
