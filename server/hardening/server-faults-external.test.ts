// The server-faults journey (server-faults.test.ts) with MQTT_URL: the server runs its gateway
// over a private Mosquitto, which stays up while the server is killed (SIGKILL) under load and
// then stopped (SIGTERM), each time restarted with the same client id and DATA_DIR. Here the
// broker acknowledges an agent's candidate, not the server: what the agents published while the
// server was down waits in the server's session, and the server takes it in pipelined, holding
// each PUBACK until its candidate is stored and decided (decisions-external-broker.md). Nothing
// an agent got a PUBACK for may go missing, nothing is decided twice, and the budget is spent
// once per approval.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli';
import { agentCandidateTopic } from '../mqtt/dynsec-acls';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { startPrivateMosquitto, type PrivateMosquitto } from '../test-support/private-mosquitto';
import { killed, startServerProcess, stopped, type ServerProcess } from '../test-support/server-process';
import { allMessages } from '../test-support/room-history';
import { grantFromConsole } from '../test-support/console-grants';
import { sessionCookie } from '../test-support/sessions';

const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-faults-external-'));
const file = join(dataDir, 'switchboard.sqlite');
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const AGENTS = ['agent.w1', 'agent.w2', 'agent.w3'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let mosquitto: PrivateMosquitto | undefined;
let server: ServerProcess | undefined;
const clients: TestClient[] = [];

afterAll(async () => {
  for (const c of clients) c.client.end(true);
  if (server) await killed(server.child);
  await mosquitto?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('server faults under load, external broker', () => {
  it('loses nothing the broker acknowledged across a SIGKILL and a SIGTERM of the server, decides each candidate once, spends no budget twice', async () => {
    // As docs/deploy.md sets Mosquitto up: a queue for the server's session larger than what the
    // agents send while it restarts.
    mosquitto = await startPrivateMosquitto({ tcpNoDelay: true, maxQueuedMessages: 100_000 });
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      MQTT_URL: mosquitto.url,
      MQTT_ADMIN_USERNAME: mosquitto.admin.username,
      MQTT_ADMIN_PASSWORD: mosquitto.admin.password,
      MQTT_CLIENT_ID: 'sb-faults',
    };
    const cli = async (...argv: string[]) => {
      let stdout = '';
      const code = await runCli(argv, {
        stdout: (t) => (stdout += t),
        stderr: () => undefined,
        env,
        cwd: dataDir,
        now: () => Date.now(),
      });
      expect(code).toBe(0);
      return JSON.parse(stdout) as { password: string };
    };
    env.MQTT_PASSWORD = (await cli('broker', 'setup', '--json')).password;
    const passwords = new Map<string, string>();
    for (const agentId of [...AGENTS, 'agent.listener'])
      passwords.set(agentId, (await cli('agents', 'add', agentId, '--json')).password);
    const setup = new SqliteStore({ file });
    await setup.rooms.ensureRoom({ id: 'r1', name: 'Room', moderation: 'auto' });
    const cookie = await sessionCookie(setup, FACILITATOR, 'facilitator');
    await setup.close();

    server = await startServerProcess(env);
    const port = new URL(server.url).port;
    const now = Math.floor(Date.now() / 1000);
    await grantFromConsole(server.url, cookie, FACILITATOR, AGENTS, now);
    const granted = new SqliteStore({ file });
    for (
      let i = 0;
      i < 500 && (await Promise.all(AGENTS.map((a) => granted.rooms.getGrant('r1', a, 't1')))).some((g) => !g);
      i++
    )
      await sleep(10);
    await granted.close();

    // Agents and the public subscriber talk to Mosquitto, which stays up throughout.
    const seen = new Set<string>();
    const listener = await connectClient(mosquitto.url, {
      username: 'agent.listener',
      password: passwords.get('agent.listener')!,
      clientId: 'agent.listener',
    });
    clients.push(listener);
    listener.client.on('message', (_t, payload) => seen.add((JSON.parse(payload.toString()) as { id: string }).id));
    await listener.client.subscribeAsync('rooms/r1/public', { qos: 1 });

    const acked = new Set<string>();
    let stop = false;
    const pumps = AGENTS.map(async (agentId) => {
      const agent = await connectClient(mosquitto!.url, {
        username: agentId,
        password: passwords.get(agentId)!,
        clientId: agentId,
      });
      clients.push(agent);
      let n = 0;
      while (!stop) {
        const id = `c_${agentId}_${++n}`;
        const body = JSON.stringify({
          id,
          type: 'result',
          room_id: 'r1',
          from: { kind: 'agent', id: agentId },
          ts: now,
          payload: { task_id: 't1', message_type: 'progress', content: { text: `step ${n}` } },
        });
        await agent.client.publishAsync(agentCandidateTopic('r1', agentId), body, { qos: 1 }).then(() => acked.add(id));
        // At most ~600 candidates a second in all, and at most 300 not yet approved: a loaded
        // machine's server still works off what a restart leaves (and the budget lasts).
        await sleep(5);
        while (!stop && acked.size - seen.size > 300) await sleep(5);
      }
    });

    const until = async (condition: () => boolean, what: string): Promise<void> => {
      for (const deadline = Date.now() + 60_000; !condition(); await sleep(10)) {
        if (Date.now() > deadline) {
          const missing = [...acked].filter((id) => !seen.has(id));
          throw new Error(
            `timed out waiting for ${what}: ${seen.size} approvals seen, ${missing.length} acknowledged candidates not (first: ${missing.slice(0, 3).join(', ')})\n${server?.output() ?? ''}`,
          );
        }
      }
    };
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      const target = seen.size + 300;
      await until(() => seen.size >= target, `${target} approvals before the ${signal}`);
      await stopped(server, signal);
      // The agents go on publishing while the server is down: Mosquitto queues for its session.
      await sleep(300);
      server = await startServerProcess({ ...env, PORT: port });
    }
    const lastTarget = seen.size + 300;
    await until(() => seen.size >= lastTarget, 'approvals after the last restart');
    stop = true;
    await Promise.all(pumps);
    // Everything acknowledged reaches the subscriber once the server has caught up.
    await until(
      () => [...acked].every((id) => seen.has(id)),
      'every acknowledged candidate to be approved and delivered',
    );

    const check = new SqliteStore({ file });
    const history = await allMessages(check, 'r1');
    const spent = (await Promise.all(AGENTS.map((a) => check.rooms.getGrant('r1', a, 't1')))).reduce(
      (sum, g) => sum + (g?.spent ?? 0),
      0,
    );
    await check.close();
    const candidates = history.filter((m) => m.topicKind === 'public_candidates').map((m) => m.messageId!);
    const published = history.filter((m) => m.topicKind === 'public').map((m) => m.messageId!);
    // Stored once each: a candidate the broker sent again after a crash is not stored again.
    expect([...acked].filter((id) => !candidates.includes(id))).toEqual([]);
    expect(new Set(candidates).size).toBe(candidates.length);
    // Approved once each, and the budget spent once per approval.
    expect(new Set(published).size).toBe(published.length);
    expect([...acked].filter((id) => !published.includes(id))).toEqual([]);
    expect(spent).toBe(published.length);
    expect(history.some((m) => m.topicKind === 'control' && m.type === 'reject')).toBe(false);
  }, 180_000);
});
