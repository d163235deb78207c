// A flooding agent with valid credentials (docs/security.md, "An agent with valid credentials acting against others"): per-agent publish
// quotas by count and by bytes on the embedded broker, and the size caps on heartbeat and work
// (decisions-server.md §45, decisions-aor.md §20), and what of it applies with an external broker
// (Mosquitto), where agents publish past the server. Each test counts what reached room history.
import type { Packet } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEARTBEAT_BYTES, MAX_WORK_BYTES } from '@shared/aor/payload-size';
import type { TopicKind } from '../store/store';
import { startExternalRoomHarness, type BrokerRoomHarness, type Watcher } from '../test-support/external-room-harness';
import { startPrivateMosquitto, type PrivateMosquitto } from '../test-support/private-mosquitto';
import { captureLogs } from '../test-support/captured-logs';
import { startRoomHarness, type RoomHarness } from '../test-support/room-harness';

const ROOM = 'flood';
const heartbeatTopic = (agentId: string) => `rooms/${ROOM}/agents/${agentId}/heartbeat`;
const workTopic = (agentId: string) => `rooms/${ROOM}/agents/${agentId}/work`;

/** A heartbeat envelope padded to exactly `size` bytes. */
function heartbeatOf(agentId: string, n: number, size = 0): string {
  const base = JSON.stringify({
    id: `hb_${agentId}_${n}`,
    type: 'heartbeat',
    room_id: ROOM,
    from: { kind: 'agent', id: agentId },
    ts: 1,
    payload: { ts: 1, description: '' },
  });
  return size === 0 ? base : base.replace('"description":""', `"description":"${'x'.repeat(size - base.length)}"`);
}

async function stored(h: Pick<RoomHarness, 'store'>, kind: TopicKind, agentId: string) {
  const { messages } = await h.store.rooms.listMessages({ roomId: ROOM, limit: 10_000, topicKinds: [kind], agentId });
  return messages;
}

/**
 * Publishes each payload in turn at QoS 1 and counts the PUBACKs that said yes; `refusals` are the
 * refusing PUBACKs' reason code and Reason String (mqtt.js keeps only the code in its error).
 */
async function flood(client: Awaited<ReturnType<RoomHarness['agent']>>, topic: string, payloads: string[]) {
  let accepted = 0;
  const refusals: string[] = [];
  const onPacket = (packet: Packet) => {
    if (packet.cmd === 'puback' && (packet.reasonCode ?? 0) >= 0x80)
      refusals.push(`0x${packet.reasonCode!.toString(16)} ${packet.properties?.reasonString ?? ''}`);
  };
  client.client.on('packetreceive', onPacket);
  for (const payload of payloads) {
    await client.client.publishAsync(topic, payload, { qos: 1 }).then(
      () => (accepted += 1),
      () => undefined,
    );
  }
  client.client.off('packetreceive', onPacket);
  return { accepted, refusals };
}

describe('per-agent message quota (MQTT_AGENT_MSGS)', () => {
  let h: RoomHarness;
  const log = captureLogs();
  beforeAll(async () => {
    h = await startRoomHarness({
      publishQuotas: { messages: { capacity: 20, refillPerSecond: 20 / 60 }, bytes: undefined },
    });
    await h.rooms.create({ id: ROOM, name: 'Flood', moderation: 'auto' });
  });
  afterAll(async () => {
    log.restore();
    await h.close();
  });
  afterEach(() => void log.lines.splice(0));

  it('cuts an MQTT 5 agent off at the quota: history grows by the quota, the rest is refused (PUBACK 0x87) and logged once', async () => {
    const agent = await h.agent('agent.flood5');
    const payloads = Array.from({ length: 50 }, (_, i) => heartbeatOf('agent.flood5', i));
    const { accepted, refusals } = await flood(agent, heartbeatTopic('agent.flood5'), payloads);
    expect(accepted).toBe(20);
    expect(refusals).toHaveLength(30);
    expect(refusals[0]).toBe('0x87 message_rate_too_high');
    expect(await stored(h, 'heartbeat', 'agent.flood5')).toHaveLength(20);
    const lines = log.lines.filter((l) => l.code === 'MQTT_QUOTA');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', agentId: 'agent.flood5', reason: 'message_rate_too_high' }),
    ]);
  });

  it("keeps counting across a reconnect (the quota is the agent's, not the connection's) and refills with time", async () => {
    const again = await h.agent('agent.flood5');
    expect((await flood(again, heartbeatTopic('agent.flood5'), [heartbeatOf('agent.flood5', 100)])).accepted).toBe(0);
    // Candidates count against the same budget as heartbeats.
    expect((await flood(again, `rooms/${ROOM}/public_candidates`, ['{}'])).accepted).toBe(0);
    expect(await stored(h, 'public_candidates', 'agent.flood5')).toHaveLength(0);
    h.clock.now += 6_000; // 6 s at 20 per minute: two messages
    expect(
      (
        await flood(
          again,
          heartbeatTopic('agent.flood5'),
          [101, 102, 103].map((n) => heartbeatOf('agent.flood5', n)),
        )
      ).accepted,
    ).toBe(2);
    expect(await stored(h, 'heartbeat', 'agent.flood5')).toHaveLength(22);
  });

  it('leaves other agents their own budget', async () => {
    const other = await h.agent('agent.calm');
    expect((await flood(other, heartbeatTopic('agent.calm'), [heartbeatOf('agent.calm', 1)])).accepted).toBe(1);
  });

  it('disconnects an MQTT 3.1.1 agent past the quota (3.1.1 has no refusal to send) and stores no more than the quota', async () => {
    const agent = await h.agent('agent.flood4', 4);
    const closed = new Promise<void>((resolve) => agent.client.once('close', () => resolve()));
    for (let i = 0; i < 40 && agent.client.connected; i += 1) {
      await Promise.race([
        agent.client
          .publishAsync(heartbeatTopic('agent.flood4'), heartbeatOf('agent.flood4', i), { qos: 1 })
          .catch(() => undefined),
        closed,
      ]);
    }
    expect(await stored(h, 'heartbeat', 'agent.flood4')).toHaveLength(20);
    await closed;
  });
});

describe('per-agent byte quota (MQTT_AGENT_BYTES)', () => {
  let h: RoomHarness;
  beforeAll(async () => {
    h = await startRoomHarness({
      publishQuotas: { messages: undefined, bytes: { capacity: 64 * 1024, refillPerSecond: (64 * 1024) / 60 } },
    });
    await h.rooms.create({ id: ROOM, name: 'Flood', moderation: 'auto' });
  });
  afterAll(() => h.close());

  it("cuts a byte flood on the agent's own work topic at the quota: at most 64 KiB reach history", async () => {
    const agent = await h.agent('agent.bytes');
    const chunk = JSON.stringify({ id: 'w', type: 'work', note: 'y'.repeat(16 * 1024 - 40) });
    const { accepted, refusals } = await flood(
      agent,
      workTopic('agent.bytes'),
      Array.from({ length: 20 }, () => chunk),
    );
    expect(refusals[0]).toMatch(/byte_quota_exceeded/);
    const rows = await stored(h, 'work', 'agent.bytes');
    expect(rows).toHaveLength(accepted);
    expect(rows.reduce((sum, r) => sum + r.payload.byteLength, 0)).toBeLessThanOrEqual(64 * 1024);
    expect(accepted).toBe(Math.floor((64 * 1024) / Buffer.byteLength(chunk)));
  });
});

describe('size caps on heartbeat and work (decision AOR 20)', () => {
  let h: RoomHarness;
  beforeAll(async () => {
    h = await startRoomHarness();
    await h.rooms.create({ id: ROOM, name: 'Flood', moderation: 'auto' });
  });
  afterAll(() => h.close());

  it('refuses a heartbeat one byte over 4 KiB and stores none of it; exactly 4 KiB is stored', async () => {
    const agent = await h.agent('agent.big');
    const fits = heartbeatOf('agent.big', 1, MAX_HEARTBEAT_BYTES);
    const over = heartbeatOf('agent.big', 2, MAX_HEARTBEAT_BYTES + 1);
    expect(Buffer.byteLength(fits)).toBe(MAX_HEARTBEAT_BYTES);
    const result = await flood(agent, heartbeatTopic('agent.big'), [fits, over]);
    expect(result.accepted).toBe(1);
    expect(result.refusals[0]).toMatch(/payload_too_large/);
    expect((await stored(h, 'heartbeat', 'agent.big')).map((r) => r.payload.byteLength)).toEqual([MAX_HEARTBEAT_BYTES]);
  });

  it('refuses work over 64 KiB and stores none of it', async () => {
    const agent = await h.agent('agent.big');
    const result = await flood(agent, workTopic('agent.big'), [
      'z'.repeat(MAX_WORK_BYTES + 1),
      'z'.repeat(MAX_WORK_BYTES),
    ]);
    expect(result.accepted).toBe(1);
    expect(result.refusals[0]).toMatch(/payload_too_large/);
    expect((await stored(h, 'work', 'agent.big')).map((r) => r.payload.byteLength)).toEqual([MAX_WORK_BYTES]);
  });
});

describe('on an external broker (Mosquitto), where the server takes quotas and caps on arrival', () => {
  let mosquitto: PrivateMosquitto;
  let h: BrokerRoomHarness;
  let w: Watcher;
  let markers = 0;
  beforeAll(async () => {
    mosquitto = await startPrivateMosquitto();
    h = await startExternalRoomHarness(mosquitto, {
      publishQuotas: { messages: { capacity: 20, refillPerSecond: 20 / 60 }, bytes: undefined },
    });
    await h.rooms.create({ id: ROOM, name: 'Flood', moderation: 'auto' });
    w = await h.watcher();
  });
  afterAll(async () => {
    await h?.close();
    await mosquitto?.stop();
  });

  /**
   * Mosquitto acknowledges every publish itself, so the agent cannot tell what the server kept. A
   * marker from another agent, published after Mosquitto acknowledged the whole flood, reaches the
   * server's one session after it: once the server has handled the marker, it has handled the flood.
   */
  async function settled(): Promise<void> {
    const marker = await h.agent('agent.marker');
    const id = `marker_${++markers}`;
    await marker.client.publishAsync(
      heartbeatTopic('agent.marker'),
      heartbeatOf('agent.marker', markers).replace(/"id":"[^"]+"/, `"id":"${id}"`),
      { qos: 1 },
    );
    await w.until(heartbeatTopic('agent.marker'), id);
  }

  it("records an agent's heartbeats only up to its quota, and decides none of its candidates past it", async () => {
    const agent = await h.agent('agent.ext');
    for (let i = 0; i < 50; i += 1)
      await agent.client.publishAsync(heartbeatTopic('agent.ext'), heartbeatOf('agent.ext', i), { qos: 1 });
    const candidate = JSON.stringify({
      id: 'cand_over',
      type: 'result',
      room_id: ROOM,
      from: { kind: 'agent', id: 'agent.ext' },
      ts: 1,
      payload: { task_id: 't1', message_type: 'progress', content: { text: 'x' } },
    });
    await agent.client.publishAsync(h.candidateTopic(ROOM, 'agent.ext'), candidate, { qos: 1 });
    await settled();
    expect(await stored(h, 'heartbeat', 'agent.ext')).toHaveLength(20);
    expect(await stored(h, 'public_candidates', 'agent.ext')).toHaveLength(0);
    expect(w.received.filter((m) => m.topic === `rooms/${ROOM}/control` && m.payload.includes('cand_over'))).toEqual(
      [],
    );
  });

  it('stores no heartbeat over 4 KiB and no work over 64 KiB', async () => {
    const agent = await h.agent('agent.big');
    await agent.client.publishAsync(heartbeatTopic('agent.big'), heartbeatOf('agent.big', 1, MAX_HEARTBEAT_BYTES + 1), {
      qos: 1,
    });
    await agent.client.publishAsync(workTopic('agent.big'), 'z'.repeat(MAX_WORK_BYTES + 1), { qos: 1 });
    await agent.client.publishAsync(workTopic('agent.big'), 'z'.repeat(MAX_WORK_BYTES), { qos: 1 });
    await settled();
    expect(await stored(h, 'heartbeat', 'agent.big')).toHaveLength(0);
    expect((await stored(h, 'work', 'agent.big')).map((r) => r.payload.byteLength)).toEqual([MAX_WORK_BYTES]);
  });
});
