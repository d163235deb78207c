// The §8 ACL enforced by the embedded broker, through real MQTT 3.1.1 and 5 clients over TCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedBroker } from './embedded-broker';
import type { BrokerMessage } from './broker-port';
import { connectClient, subscribeCode, tryConnect, type TestClient } from '../test-support/mqtt-clients';

const passwords = new Map([
  ['agent.researcher', 'pw-researcher'],
  ['agent.analyst', 'pw-analyst'],
]);

let broker: EmbeddedBroker;
let url: string;
const routed: BrokerMessage[] = [];
const clients: TestClient[] = [];

beforeAll(async () => {
  broker = await EmbeddedBroker.create({
    verifyAgent: async (agentId, password) => passwords.get(agentId) === password,
    beforeRoute: (m) => void routed.push(m),
  });
  const address = await broker.listenTcp('127.0.0.1', 0);
  url = `mqtt://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.client.endAsync(true)));
  await broker.close();
});

async function agent(agentId: string, protocolVersion: 4 | 5 = 5): Promise<TestClient> {
  const c = await connectClient(url, { username: agentId, password: passwords.get(agentId) ?? '', protocolVersion });
  clients.push(c);
  return c;
}

const sentinel = (marker: string) => new TextEncoder().encode(JSON.stringify({ sentinel: marker }));

describe('CONNECT', () => {
  it.each([4, 5] as const)('accepts a valid credential over MQTT v%i', async (protocolVersion) => {
    expect(await tryConnect(url, { username: 'agent.researcher', password: 'pw-researcher', protocolVersion })).toBe(
      'connected',
    );
  });

  it.each([
    ['a wrong password', { username: 'agent.researcher', password: 'nope' }],
    ['an unknown agent', { username: 'agent.ghost', password: 'pw' }],
    ['no credentials', {}],
  ])('refuses %s', async (_label, credentials) => {
    expect(await tryConnect(url, { ...credentials, protocolVersion: 5 })).toMatch(
      /Bad User Name or Password|Not authorized/i,
    );
  });

  it('refuses a client id held by another agent instead of disconnecting it', async () => {
    const holder = await connectClient(url, {
      username: 'agent.researcher',
      password: 'pw-researcher',
      clientId: 'agent.researcher/shared',
    });
    clients.push(holder);
    const result = await tryConnect(url, {
      username: 'agent.analyst',
      password: 'pw-analyst',
      clientId: 'agent.researcher/shared',
      protocolVersion: 5,
    });
    expect(result).toMatch(/Not authorized/i);
    expect(holder.client.connected).toBe(true);
  });
});

describe('agents may publish only candidates and their own heartbeat and work', () => {
  it.each([4, 5] as const)('routes allowed topics (MQTT v%i)', async (v) => {
    const a = await agent('agent.researcher', v);
    const watcher = await agent('agent.analyst');
    await watcher.client.subscribeAsync('rooms/+/control', { qos: 1 });
    for (const topic of [
      'rooms/r1/public_candidates',
      'rooms/r1/agents/agent.researcher/heartbeat',
      'rooms/r1/agents/agent.researcher/work',
    ]) {
      await a.client.publishAsync(topic, `allowed-${v}`, { qos: 1 });
      expect(routed.some((m) => m.topic === topic && new TextDecoder().decode(m.payload) === `allowed-${v}`)).toBe(
        true,
      );
    }
  });

  it.each([
    'rooms/r1/public',
    'rooms/r1/control',
    'rooms/r1/agents/agent.analyst/inbox',
    'rooms/r1/agents/agent.researcher/inbox',
    'rooms/r1/agents/agent.analyst/heartbeat',
    'rooms/r1/agents/agent.analyst/work',
    'not/a/room/topic',
  ])('denies %s: the message never arrives (MQTT 5 PUBACK refused)', async (topic) => {
    const watcher = await agent('agent.analyst');
    const observer = await connectClient(url, { username: 'agent.analyst', password: 'pw-analyst' });
    clients.push(observer);
    await watcher.client.subscribeAsync(['rooms/+/public', 'rooms/+/control', 'rooms/+/agents/agent.analyst/inbox'], {
      qos: 1,
    });
    const a = await agent('agent.researcher');
    await expect(a.client.publishAsync(topic, 'forbidden', { qos: 1 })).rejects.toThrow(
      /Not authorized|not_permitted|not_a_room_topic/i,
    );
    expect(routed.some((m) => m.topic === topic && new TextDecoder().decode(m.payload) === 'forbidden')).toBe(false);
    await broker.publish('rooms/r1/public', sentinel(topic));
    const before = await watcher.until('rooms/r1/public', topic);
    expect(before.filter((r) => r.payload === 'forbidden')).toEqual([]);
  });

  it('disconnects an MQTT 3.1.1 publisher of a forbidden topic, and routes nothing', async () => {
    const a = await agent('agent.researcher', 4);
    const closed = new Promise<void>((resolve) => a.client.once('close', () => resolve()));
    a.client.publish('rooms/r1/public', 'forbidden-v4', { qos: 0 });
    await closed;
    expect(routed.some((m) => new TextDecoder().decode(m.payload) === 'forbidden-v4')).toBe(false);
  });

  it('refuses retained publishes (they would replay outside moderation)', async () => {
    const a = await agent('agent.researcher');
    await expect(
      a.client.publishAsync('rooms/r1/public_candidates', 'retained', { qos: 1, retain: true }),
    ).rejects.toThrow();
    expect(routed.some((m) => new TextDecoder().decode(m.payload) === 'retained')).toBe(false);
  });
});

describe('agents may subscribe only to public, control and their own inbox', () => {
  it.each(['rooms/+/public', 'rooms/r1/control', 'rooms/+/agents/agent.researcher/inbox'])(
    'grants %s',
    async (filter) => {
      const a = await agent('agent.researcher');
      expect(await subscribeCode(a.client, filter)).toBe(1);
    },
  );

  it.each([
    ["another agent's inbox", 'rooms/r1/agents/agent.analyst/inbox', 'rooms/r1/agents/agent.analyst/inbox'],
    ['any inbox by wildcard', 'rooms/+/agents/+/inbox', 'rooms/r1/agents/agent.analyst/inbox'],
    ["another agent's work", 'rooms/r1/agents/agent.analyst/work', 'rooms/r1/agents/agent.analyst/work'],
    ['its own work', 'rooms/r1/agents/agent.researcher/work', 'rooms/r1/agents/agent.researcher/work'],
    ['everything', '#', 'rooms/r1/agents/agent.analyst/inbox'],
    ['all room topics', 'rooms/#', 'rooms/r1/agents/agent.analyst/work'],
    ['the candidates', 'rooms/+/public_candidates', 'rooms/r1/public_candidates'],
    ['a shared subscription', '$share/g/rooms/+/public_candidates', 'rooms/r1/public_candidates'],
    ['$SYS', '$SYS/#', 'rooms/r1/public_candidates'],
  ])('refuses %s: SUBACK fails and nothing arrives', async (_label, filter, probeTopic) => {
    const a = await agent('agent.researcher');
    await a.client.subscribeAsync('rooms/+/public', { qos: 1 });
    expect(await subscribeCode(a.client, filter)).toBeGreaterThanOrEqual(0x80);
    await broker.publish(probeTopic, new TextEncoder().encode('secret'));
    await broker.publish('rooms/r1/public', sentinel(filter));
    const before = await a.until('rooms/r1/public', filter);
    expect(before.filter((r) => r.payload === 'secret')).toEqual([]);
  });
});
