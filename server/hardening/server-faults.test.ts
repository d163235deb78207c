// Server faults: the server (and with it the embedded broker) killed with SIGKILL under load,
// then stopped with SIGTERM, each time restarted on the same ports and DATA_DIR. Agents and the
// public subscriber reconnect by themselves (mqtt.js reconnect, as AgentClient uses it); nothing
// acknowledged is lost, no budget is spent twice, and history has no gap.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { killed, startServerProcess, stopped, type ServerProcess } from '../test-support/server-process';
import { allMessages } from '../test-support/room-history';
import { grantFromConsole } from '../test-support/console-grants';
import { sessionCookie } from '../test-support/sessions';

const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-faults-'));
const file = join(dataDir, 'switchboard.sqlite');
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const AGENTS = ['agent.w1', 'agent.w2', 'agent.w3'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let server: ServerProcess | undefined;
const clients: TestClient[] = [];

afterAll(async () => {
  for (const c of clients) c.client.end(true);
  if (server) await killed(server.child);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('server faults under load', () => {
  it('loses nothing acknowledged across a SIGKILL and a SIGTERM, spends no budget twice, and everyone reconnects', async () => {
    server = await startServerProcess({ DATA_DIR: dataDir });
    const ports = { PORT: new URL(server.url).port, MQTT_PORT: new URL(server.mqttUrl).port };
    const setup = new SqliteStore({ file });
    await setup.rooms.ensureRoom({ id: 'r1', name: 'Room', moderation: 'auto' });
    const hash = await hashPassword('pw');
    for (const agentId of [...AGENTS, 'agent.listener'])
      await setup.access.putAgentCredential({ agentId, passwordHash: hash, createdAt: Date.now() });
    const cookie = await sessionCookie(setup, FACILITATOR, 'facilitator');
    await setup.close();

    const now = Math.floor(Date.now() / 1000);
    await grantFromConsole(server.url, cookie, FACILITATOR, AGENTS, now);

    // The public subscriber and the agents reconnect on their own, every 100 ms.
    const reconnect = { reconnectPeriod: 100, connectTimeout: 2_000 };
    const seen = new Set<string>();
    const listener = await connectClient(server.mqttUrl, { username: 'agent.listener', password: 'pw', ...reconnect });
    clients.push(listener);
    listener.client.on('error', () => undefined);
    listener.client.on('message', (_t, payload) => seen.add((JSON.parse(payload.toString()) as { id: string }).id));
    await listener.client.subscribeAsync('rooms/r1/public', { qos: 1 });

    const acked = new Set<string>();
    const reconnects = new Map<string, number>();
    const afterRestart = new Map<string, number>();
    let phase = 0;
    let stop = false;
    const pumps = AGENTS.map(async (agentId) => {
      const agent = await connectClient(server!.mqttUrl, { username: agentId, password: 'pw', ...reconnect });
      clients.push(agent);
      agent.client.on('error', () => undefined);
      agent.client.on('connect', () => reconnects.set(agentId, (reconnects.get(agentId) ?? 0) + 1));
      let n = 0;
      while (!stop) {
        if (!agent.client.connected) {
          await sleep(20);
          continue;
        }
        const id = `c_${agentId}_${++n}`;
        const body = JSON.stringify({
          id,
          type: 'result',
          room_id: 'r1',
          from: { kind: 'agent', id: agentId },
          ts: now,
          payload: { task_id: 't1', message_type: 'progress', content: { text: `step ${n}` } },
        });
        // Acknowledged means recorded (history before routing): it must survive any crash.
        await agent.client.publishAsync('rooms/r1/public_candidates', body, { qos: 1 }).then(
          () => {
            acked.add(id);
            if (phase > 0) afterRestart.set(agentId, (afterRestart.get(agentId) ?? 0) + 1);
          },
          () => undefined,
        );
      }
    });

    // HTTP writes run alongside: every 201 must survive too.
    const createdRooms = new Set<string>();
    const httpPump = (async () => {
      let k = 0;
      while (!stop) {
        const id = `room_${++k}`;
        const s = server!;
        const res = await fetch(`${s.url}/api/rooms`, {
          method: 'POST',
          headers: { cookie, origin: s.url, 'content-type': 'application/json' },
          body: JSON.stringify({ id, name: `Room ${k}`, moderation: 'auto' }),
        }).catch(() => undefined);
        if (res?.status === 201) createdRooms.add(id);
        await sleep(10);
      }
    })();

    const until = async (condition: () => boolean) => {
      while (!condition()) await sleep(10);
    };
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      const target = seen.size + 150;
      await until(() => seen.size >= target);
      await stopped(server, signal);
      server = await startServerProcess({ DATA_DIR: dataDir, ...ports });
      phase++;
      // Every agent is back and approved again after this restart.
      const before = new Map(afterRestart);
      await until(() => AGENTS.every((a) => (afterRestart.get(a) ?? 0) > (before.get(a) ?? 0) + 20));
    }
    const lastTarget = seen.size + 100;
    await until(() => seen.size >= lastTarget);
    stop = true;
    await Promise.all([...pumps, httpPump]);

    const check = new SqliteStore({ file });
    // The gateway decides what was acknowledged before the stop; let it finish.
    const spentNow = async () =>
      (await Promise.all(AGENTS.map((a) => check.rooms.getGrant('r1', a, 't1')))).reduce(
        (sum, g) => sum + (g?.spent ?? 0),
        0,
      );
    for (let i = 0; i < 500 && seen.size < (await spentNow()); i++) await sleep(10);
    const history = await allMessages(check, 'r1');
    const rooms = new Set((await check.rooms.listRooms()).map((r) => r.id));
    const spent = await spentNow();
    await check.close();

    const ids = (kind: string) => new Set(history.filter((m) => m.topicKind === kind).map((m) => m.messageId));
    const candidates = ids('public_candidates');
    const published = history.filter((m) => m.topicKind === 'public').map((m) => m.messageId!);
    // Stored: every acknowledged candidate and room is there.
    expect([...acked].filter((id) => !candidates.has(id))).toEqual([]);
    expect([...createdRooms].filter((id) => !rooms.has(id))).toEqual([]);
    // Approved: everything the subscriber saw is in history, each approval once, budget spent once per approval.
    expect([...seen].filter((id) => !published.includes(id))).toEqual([]);
    expect(new Set(published).size).toBe(published.length);
    expect(spent).toBe(published.length);
    // No gap: cursors strictly increase across both restarts.
    const cursors = history.map((m) => m.cursor);
    expect(cursors.every((c, i) => i === 0 || c > cursors[i - 1]!)).toBe(true);
    // Everyone reconnected after each restart (the first connect is not counted).
    for (const agentId of AGENTS) expect(reconnects.get(agentId)).toBeGreaterThanOrEqual(2);
    expect(createdRooms.size).toBeGreaterThan(0);
    // Decided: every acknowledged candidate was approved or rejected, even those the crash or the
    // stop caught between recording and deciding (Gateway.recover at start).
    const rejected = new Set(
      history
        .filter((m) => m.topicKind === 'control' && m.type === 'reject')
        .map(
          (m) =>
            (JSON.parse(new TextDecoder().decode(m.payload)) as { payload: { message_id?: string } }).payload
              .message_id,
        ),
    );
    expect([...acked].filter((id) => !published.includes(id) && !rejected.has(id))).toEqual([]);
  }, 120_000);
});
