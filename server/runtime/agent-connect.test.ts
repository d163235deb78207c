// An agent's CONNECT (decisions-server.md §71, §72), on SQLite and PostgreSQL: an old scrypt
// credential still connects and is upgraded to its fast form, which connections made before the
// upgrade survive; a wrong password is refused; a suspension that lands while a CONNECT's
// password is being checked refuses it, in the verifier and in the real broker.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastAgentHash } from '../auth/agent-password';
import { generateAgentPassword, hashPassword } from '../auth/password';
import { runCli } from '../cli/run-cli';
import { loadConfig } from '../config';
import { EmbeddedBroker } from '../mqtt/embedded-broker';
import { openStore } from '../store/open-store';
import type { Store } from '../store/store';
import { manualClock } from '../test-support/manual-clock';
import { connectClient, tryConnect, type TestClient } from '../test-support/mqtt-clients';
import { usePgDatabase } from '../test-support/pg-database';
import { agentVerifier } from './agent-verifier';
import { startSwitchboard, type RunningSwitchboard } from './start-switchboard';

const pg = usePgDatabase();

const engines: [string, () => Promise<Record<string, string>>][] = [
  ['SQLite', async () => ({})],
  ['PostgreSQL', async () => ({ DATABASE_URL: await pg.url() })],
];

describe.each(engines)('on %s', (_engine, engineEnv) => {
  let sb: RunningSwitchboard;
  let dir: string;
  let env: Record<string, string>;
  const clock = manualClock(Date.UTC(2026, 10, 22, 12));
  const open: TestClient[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'switchboard-agent-connect-'));
    env = { DATA_DIR: dir, ...(await engineEnv()) };
    sb = await startSwitchboard(
      loadConfig({ PORT: '0', MQTT_PORT: '0', DEMO: '0', MQTT_REVALIDATE_MS: '600000', ...env }),
      { clock },
    );
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.client.endAsync(true)));
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const connect = async (agentId: string, password: string, n: number) => {
    const c = await connectClient(sb.mqttUrl, { username: agentId, password, clientId: `${agentId}/${n}` });
    open.push(c);
    return c;
  };

  it('connects an old scrypt credential and upgrades it; the connection stays through a sweep', async () => {
    const password = generateAgentPassword();
    const old = await hashPassword(password);
    await sb.store.access.putAgentCredential({ agentId: 'agent.old', passwordHash: old, createdAt: clock.now() });
    const first = await connect('agent.old', password, 1);
    expect((await sb.store.access.getAgentCredential('agent.old'))?.passwordHash).toBe(fastAgentHash(password));
    // The fast form now: the same password connects, a wrong one is refused.
    const second = await connect('agent.old', password, 2);
    expect(await tryConnect(sb.mqttUrl, { username: 'agent.old', password: generateAgentPassword() })).toMatch(
      /Bad user ?name or password/i,
    );
    expect(await tryConnect(sb.mqttUrl, { username: 'agent.old', password: '' })).toMatch(
      /Bad user ?name or password|Not authorized/i,
    );
    // A sweep (the CLI disconnecting another agent) checks every connection: the upgrade revoked none.
    const otherPassword = generateAgentPassword();
    await sb.store.access.putAgentCredential({
      agentId: 'agent.other',
      passwordHash: fastAgentHash(otherPassword),
      createdAt: clock.now(),
    });
    const other = await connect('agent.other', otherPassword, 1);
    const otherClosed = new Promise<void>((resolve) => other.client.once('close', () => resolve()));
    let out = '';
    const code = await runCli(['agents', 'disconnect', 'agent.other'], {
      stdout: (t) => (out += t),
      stderr: (t) => (out += t),
      env,
      cwd: dir,
      now: () => clock.now(),
    });
    expect(code, out).toBe(0);
    await otherClosed;
    for (const c of [first, second]) {
      await c.client.publishAsync('rooms/none/agents/agent.old/heartbeat', '{}', { qos: 0 });
      expect(c.client.connected).toBe(true);
    }
  });

  describe('the verifier', () => {
    let store: Store;
    beforeAll(async () => {
      store = await openStore({ dataDir: dir, databaseUrl: env.DATABASE_URL });
    });
    afterAll(async () => {
      await store.close();
    });

    it('refuses a CONNECT whose slow check a suspension overtook', async () => {
      const password = generateAgentPassword();
      await store.access.putAgentCredential({
        agentId: 'agent.raced',
        passwordHash: await hashPassword(password),
        createdAt: clock.now(),
      });
      let reads = 0;
      const verify = agentVerifier({
        // The suspension lands right after the first read, while scrypt runs.
        getAgentCredential: async (agentId) => {
          const credential = await store.access.getAgentCredential(agentId);
          if (++reads === 1)
            await store.access.setAgentSuspension(agentId, { at: clock.now(), by: 'cli', reason: 'raced' });
          return credential;
        },
        getAgentCredentials: (ids) => store.access.getAgentCredentials(ids),
        upgradeAgentPasswordHash: (...args) => store.access.upgradeAgentPasswordHash(...args),
      });
      expect(await verify('agent.raced', password)).toBe('suspended');
    });

    it('refuses a wrong password and accepts the right one, whose check holds across its upgrade', async () => {
      const password = generateAgentPassword();
      await store.access.putAgentCredential({
        agentId: 'agent.checked',
        passwordHash: await hashPassword(password),
        createdAt: clock.now(),
      });
      const verify = agentVerifier(store.access);
      expect(await verify('agent.checked', generateAgentPassword())).toBe(false);
      expect(await verify('nobody', password)).toBe(false);
      const stillValid = await verify('agent.checked', password);
      expect(typeof stillValid).toBe('function');
      expect((await store.access.getAgentCredential('agent.checked'))?.passwordHash).toBe(fastAgentHash(password));
      expect(await (stillValid as () => Promise<boolean>)()).toBe(true);
      await store.access.putAgentCredential({
        agentId: 'agent.checked',
        passwordHash: fastAgentHash(generateAgentPassword()),
        createdAt: clock.now(),
      });
      expect(await (stillValid as () => Promise<boolean>)()).toBe(false);
    });
  });
});

describe('the broker, a CONNECT racing a revocation', () => {
  it('refuses a CONNECT whose credential was read before a sweep it could not be part of', async () => {
    let valid = true;
    let called!: () => void;
    const verifying = new Promise<void>((resolve) => (called = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const broker = await EmbeddedBroker.create({
      // Reads the credential (valid then), then checks the password slowly.
      verifyAgent: async () => {
        const readValid = valid;
        called();
        await released;
        return readValid && (async () => valid);
      },
      revalidateEveryMs: 3_600_000,
    });
    const { port } = await broker.listenTcp('127.0.0.1', 0);
    try {
      const attempt = tryConnect(`mqtt://127.0.0.1:${port}`, {
        username: 'agent.a',
        password: 'pw',
        clientId: 'agent.a/1',
        protocolVersion: 5,
      });
      await verifying;
      // The revocation: the store changes, then the server asks for a sweep, which cannot see
      // this CONNECT yet.
      valid = false;
      expect(await broker.revalidate()).toBe(0);
      release();
      expect(await attempt).toMatch(/Not authorized/i);
      expect(broker.connectedClients).toBe(0);
    } finally {
      await broker.close();
    }
  });
});
