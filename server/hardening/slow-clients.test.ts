// Slow (frozen) clients on the console's WebSocket and on agents' MQTT/TCP. A console and
// an agent subscribe and never read while the server publishes 8 KiB messages on
// rooms/r1/public; healthy subscribers on both transports must get every message, in order,
// while it happens, and the frozen ones are cut by their byte budget or their drain deadline
// (server/mqtt/send-limits.ts). Before the limits, the first frozen client stopped delivery to
// everyone for aedes' 60 s drain timeout (docs/security.md "Slow clients").
import { getDefaultHighWaterMark } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { SendLimits } from '../mqtt/send-limits';
import { captureLogs } from '../test-support/captured-logs';
import type { TestClient } from '../test-support/mqtt-clients';
import { PASSWORD, startRoomHarness, type RoomHarness } from '../test-support/room-harness';
import { connectOperator, type OperatorClient } from './facilitator-client';
import { frozenAgent, frozenOperator, type FrozenClient } from './frozen-client';

const TOPIC = 'rooms/r1/public';
const MESSAGE = Buffer.alloc(8 * 1024, 'x');
const MiB = 1024 * 1024;
const HOUR = 3_600_000;

let h: RoomHarness | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await h?.close();
  h = undefined;
});

interface Scene {
  readonly harness: RoomHarness;
  readonly agent: TestClient;
  readonly console: OperatorClient;
  readonly frozen: readonly FrozenClient[];
  /** The clients cut as slow, with why (the SLOW_CLIENT log lines). */
  readonly cuts: () => readonly { readonly clientId: unknown; readonly reason: unknown }[];
}

/** A healthy agent and console, a frozen agent and console, all subscribed to rooms/r1/public. */
async function scene(limits: SendLimits): Promise<Scene> {
  const log = captureLogs();
  closers.push(async () => log.restore());
  const cuts = () =>
    log.lines.filter((line) => line.code === 'SLOW_CLIENT').map(({ clientId, reason }) => ({ clientId, reason }));
  const harness = (h = await startRoomHarness({ sendLimits: limits }));
  const agent = await harness.agent('healthy-agent');
  await agent.client.subscribeAsync(TOPIC, { qos: 1 });
  const console_ = await connectOperator(harness.broker, 'did:key:z6MkSlowHealthyConsole', {
    role: 'observer',
    clientId: 'did:key:z6MkSlowHealthyConsole/healthy-console',
  });
  closers.push(() => console_.close());
  await console_.client.subscribeAsync('rooms/#', { qos: 1 });
  const frozen = [
    await frozenOperator(
      harness.broker,
      'did:key:z6MkSlowFrozenConsole',
      'did:key:z6MkSlowFrozenConsole/frozen-console',
      'rooms/#',
    ),
    await frozenAgent(harness.url, 'frozen-agent', PASSWORD, 'rooms/+/public'),
  ];
  for (const f of frozen) closers.push(() => f.close());
  return { harness, agent, console: console_, frozen, cuts };
}

const numbered = (i: number) => new Uint8Array(Buffer.concat([Buffer.from(`#${i}|`), MESSAGE]));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 3000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition(), what).toBe(true);
}

/** Every message `#0` … `#n-1`, once each, in order. */
function expectAllInOrder(client: TestClient, n: number): void {
  const indexes = client.received.filter((m) => m.topic === TOPIC).map((m) => Number(/^#(\d+)\|/.exec(m.payload)?.[1]));
  expect(indexes.length).toBe(n);
  expect(indexes.every((value, i) => value === i)).toBe(true);
}

describe('a console and an agent that subscribe and never read', () => {
  it('are cut at their byte budget while healthy subscribers get all 5,000 messages in order; the server never holds more than the budget for them', async () => {
    // The drain deadline is an hour: only the byte budget can cut them, and if delivery waited
    // for them (as aedes alone does) the healthy ones would not get the messages within the test.
    const limits: SendLimits = { maxBufferedBytes: 1 * MiB, drainTimeoutMs: HOUR };
    const { harness, agent, console: healthyConsole, frozen, cuts } = await scene(limits);
    const total = 5000;
    let peak = 0;
    let cutAt = Number.NaN;
    for (let i = 0; i < total; i++) {
      await harness.broker.publish(TOPIC, numbered(i));
      const queued = frozen.map((f) => harness.broker.queuedBytes(f.clientId));
      for (const q of queued) peak = Math.max(peak, q ?? 0);
      if (Number.isNaN(cutAt) && queued.every((q) => q === undefined)) cutAt = i;
    }
    await until(
      () => frozen.every((f) => harness.broker.queuedBytes(f.clientId) === undefined),
      'both frozen clients disconnected',
    );
    await until(
      () => agent.received.length >= total && healthyConsole.received.length >= total,
      'healthy subscribers got every message',
    );
    expectAllInOrder(agent, total);
    expectAllInOrder(healthyConsole, total);
    console.info(
      `slow clients: both frozen clients cut by message ${cutAt} of ${total}; peak held for one ${(peak / MiB).toFixed(2)} MiB (budget ${limits.maxBufferedBytes / MiB} MiB)`,
    );
    // At most the budget, one more packet (the write that crossed it) and, on the WebSocket, the
    // frame its socket was sending.
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(limits.maxBufferedBytes + 2 * (MESSAGE.length + 64));
    expect(
      cuts()
        .filter((cut) => cut.reason === 'send_buffer_full')
        .map((cut) => cut.clientId)
        .sort(),
    ).toEqual(['did:key:z6MkSlowFrozenConsole/frozen-console', 'frozen-agent']);
    expect(harness.broker.queuedBytes('did:key:z6MkSlowHealthyConsole/healthy-console')).toBe(0);
  });

  it('are cut at their drain deadline when what they hold stays under the budget', async () => {
    const limits: SendLimits = { maxBufferedBytes: 1024 * MiB, drainTimeoutMs: 200 };
    const { harness, agent, console: healthyConsole, frozen, cuts } = await scene(limits);
    // Publish until each frozen client's kernel buffers are full and its queue in the server is
    // past the stream's high-water mark, where its deadline starts (or it is already gone), then
    // stop: nothing more arrives to push it over any budget.
    const full = getDefaultHighWaterMark(false);
    const backedUp = new Set<string>();
    let sent = 0;
    while (backedUp.size < frozen.length && sent < 50_000) {
      await harness.broker.publish(TOPIC, numbered(sent++));
      for (const f of frozen) if ((harness.broker.queuedBytes(f.clientId) ?? full) >= full) backedUp.add(f.clientId);
    }
    expect(backedUp.size).toBe(frozen.length);
    await until(
      () => frozen.every((f) => harness.broker.queuedBytes(f.clientId) === undefined),
      'both frozen clients disconnected',
    );
    expect(
      cuts()
        .filter((cut) => cut.reason === 'drain_timeout')
        .map((cut) => cut.clientId)
        .sort(),
    ).toEqual(['did:key:z6MkSlowFrozenConsole/frozen-console', 'frozen-agent']);
    expect(cuts().some((cut) => cut.reason === 'send_buffer_full')).toBe(false);
    await until(
      () => agent.received.length >= sent && healthyConsole.received.length >= sent,
      'healthy subscribers got every message',
    );
    expectAllInOrder(agent, sent);
    expectAllInOrder(healthyConsole, sent);
  });

  it('keeps a client that stops reading for a while and catches up before its deadline, and it loses nothing', async () => {
    const limits: SendLimits = { maxBufferedBytes: 1024 * MiB, drainTimeoutMs: HOUR };
    const harness = (h = await startRoomHarness({ sendLimits: limits }));
    const lagging = await harness.agent('lagging-agent');
    await lagging.client.subscribeAsync(TOPIC, { qos: 1 });
    lagging.client.stream.pause();
    let sent = 0;
    while ((harness.broker.queuedBytes(lagging.client.options.clientId!) ?? 0) === 0 && sent < 50_000)
      await harness.broker.publish(TOPIC, numbered(sent++));
    expect(harness.broker.queuedBytes(lagging.client.options.clientId!)).toBeGreaterThan(0);
    for (let i = 0; i < 100; i++) await harness.broker.publish(TOPIC, numbered(sent++));
    lagging.client.stream.resume();
    await until(() => lagging.received.length >= sent, 'the lagging client caught up');
    expectAllInOrder(lagging, sent);
    await until(() => harness.broker.queuedBytes(lagging.client.options.clientId!) === 0, 'its queue drained');
  });
});
