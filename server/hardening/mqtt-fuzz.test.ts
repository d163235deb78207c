// MQTT fuzz: every topic the server reads, fed hostile payloads by real MQTT clients
// against the embedded broker. Candidates get exactly one coded decision each (AOR §7); control,
// heartbeat and work payloads that are not valid change no state, and those over their size cap
// are refused (decisions-aor.md §20); the server keeps answering.
// Case counts per surface are fixed (numRuns) and reported in docs/security-faults.md.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnvelope } from '@shared/aor/envelope';
import { MAX_HEARTBEAT_BYTES, MAX_WORK_BYTES } from '@shared/aor/payload-size';
import { isRejectReason } from '@shared/aor/reject-reasons';
import { PresenceTracker } from '../rooms/presence-tracker';
import type { TestClient } from '../test-support/mqtt-clients';
import { startRoomHarness, type RoomHarness } from '../test-support/room-harness';
import { connectOperator, type OperatorClient } from './facilitator-client';
import { hostilePayload } from './fuzz-payloads';

export const CASES = { candidates: 300, control: 200, heartbeat: 200, work: 150 } as const;
const SEED = 9_2026;
const FACILITATOR = 'did:key:z6MkFuzzFacilitator';
const AGENT = 'agent.researcher';

let h: RoomHarness;
let w: Awaited<ReturnType<RoomHarness['watcher']>>;
let presence: PresenceTracker;
let facilitator: OperatorClient;
let agent: TestClient;
let seq = 0;
const nowS = () => Math.floor(h.clock.now / 1000);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const candidate = (messageType = 'progress') => ({
  id: `cand_${++seq}`,
  type: 'result',
  room_id: 'r1',
  from: { kind: 'agent', id: AGENT },
  ts: nowS(),
  payload: {
    task_id: 'task_1',
    message_type: messageType,
    content: messageType === 'finding' ? { bullets: ['x'] } : { text: 'working' },
  },
});
const grant = (agentId: string, taskId: string, max = 10_000) => ({
  id: `grant_${++seq}`,
  type: 'mic_grant',
  room_id: 'r1',
  from: { kind: 'user', id: FACILITATOR },
  ts: nowS(),
  payload: {
    task_id: taskId,
    agent_id: agentId,
    max_messages: max,
    allowed_message_types: ['ack', 'progress', 'result'],
    expires_at: nowS() + 86_400,
  },
});
const heartbeat = () => ({
  id: `hb_${++seq}`,
  type: 'heartbeat',
  room_id: 'r1',
  from: { kind: 'agent', id: AGENT },
  ts: nowS(),
  payload: { ts: nowS(), description: 'fuzzed' },
});

/** Resolves once the broker has routed `count` messages on `topic` (every server handler has run by then). */
async function routed(topic: string, count: number): Promise<void> {
  for (let i = 0; i < 100_000 && w.received.filter((m) => m.topic === topic).length < count; i++)
    await new Promise((r) => setImmediate(r));
  expect(w.received.filter((m) => m.topic === topic).length).toBeGreaterThanOrEqual(count);
}

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100_000; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('condition never held');
}

/** Publishes and reports whether the broker accepted it (MQTT 5 PUBACK) instead of throwing. */
async function publish(client: TestClient, topic: string, payload: Uint8Array): Promise<boolean> {
  try {
    await client.client.publishAsync(topic, Buffer.from(payload), { qos: 1 });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  h = await startRoomHarness();
  await h.rooms.create({ id: 'r1', name: 'Room one', moderation: 'auto' });
  await h.rooms.create({ id: 'r2', name: 'Room two', moderation: 'auto' });
  w = await h.watcher();
  presence = new PresenceTracker(h.broker, () => h.clock.now);
  facilitator = await connectOperator(h.broker, FACILITATOR);
  agent = await h.agent(AGENT);
  const g = grant(AGENT, 'task_1');
  expect(await publish(facilitator, 'rooms/r1/control', new TextEncoder().encode(JSON.stringify(g)))).toBe(true);
  await until(() => h.store.rooms.getGrant('r1', AGENT, 'task_1'));
});

afterAll(async () => {
  presence.stop();
  await facilitator.close();
  await h.close();
});

const onTopic = (topic: string) => w.received.filter((m) => m.topic === topic);

describe('rooms/+/public_candidates', () => {
  it(`gives each of ${CASES.candidates} hostile candidates exactly one decision: a coded reject, or an approval that spends one message`, async () => {
    const outcomes = { rejected: 0, approved: 0 };
    await fc.assert(
      fc.asyncProperty(
        hostilePayload(() => candidate()),
        async (payload) => {
          const controlBefore = onTopic('rooms/r1/control').length;
          const publicBefore = onTopic('rooms/r1/public').length;
          expect(await publish(agent, 'rooms/r1/public_candidates', payload)).toBe(true);
          // A probe the grant refuses (finding is not allowed), answered after the case: the
          // gateway decides a room's messages in order, so the case has been decided by then.
          const probe = candidate('finding');
          expect(
            await publish(agent, 'rooms/r1/public_candidates', new TextEncoder().encode(JSON.stringify(probe))),
          ).toBe(true);
          await w.until('rooms/r1/control', `"message_id":"${probe.id}"`);
          const control = onTopic('rooms/r1/control').slice(controlBefore, -1);
          const published = onTopic('rooms/r1/public').slice(publicBefore);
          expect(control.length + published.length).toBe(1);
          for (const m of control) {
            const reject = JSON.parse(m.payload) as { type: string; payload: { reason: unknown } };
            expect(reject.type).toBe('reject');
            expect(isRejectReason(reject.payload.reason)).toBe(true);
            outcomes.rejected++;
          }
          // Only a candidate the shared parser accepts may reach public, and then byte for byte.
          for (const m of published) {
            expect(parseEnvelope(payload).ok).toBe(true);
            expect(m.payload).toBe(text(payload));
            outcomes.approved++;
          }
        },
      ),
      { seed: SEED, numRuns: CASES.candidates, endOnFailure: true },
    );
    // No budget spent without a message on public, and none on public without a spend.
    expect((await h.store.rooms.getGrant('r1', AGENT, 'task_1'))?.spent).toBe(onTopic('rooms/r1/public').length);
    expect(outcomes.rejected + outcomes.approved).toBe(CASES.candidates);
    // Both paths ran: the fuzz reaches approval too, not only the first JSON check.
    expect(outcomes.rejected).toBeGreaterThan(outcomes.approved);
    expect(outcomes.approved).toBeGreaterThan(0);
  });

  it('refuses a packet over the broker cap (512 KiB) by closing the connection; nothing is stored or decided', async () => {
    const big = await h.agent(AGENT);
    big.client.on('error', () => undefined);
    const before = (await h.store.rooms.listMessages({ roomId: 'r1', limit: 10_000 })).messages.length;
    const closed = new Promise<void>((resolve) => big.client.once('close', () => resolve()));
    big.client.publish('rooms/r1/public_candidates', Buffer.alloc(600 * 1024, 0x61), { qos: 1 });
    await closed;
    const probe = candidate('finding');
    await publish(agent, 'rooms/r1/public_candidates', new TextEncoder().encode(JSON.stringify(probe)));
    await w.until('rooms/r1/control', `"message_id":"${probe.id}"`);
    const after = (await h.store.rooms.listMessages({ roomId: 'r1', limit: 10_000 })).messages;
    // Only the probe and its reject were added.
    expect(after.length - before).toBe(2);
  });
});

describe('rooms/+/control', () => {
  it(`lets none of ${CASES.control} hostile control messages from a facilitator change a grant unless the shared parser accepts it`, async () => {
    const counts = { refusedByBroker: 0, dropped: 0, applied: 0 };
    await fc.assert(
      fc.asyncProperty(
        hostilePayload(() => grant('agent.fuzz', 'task_fuzz', 5)),
        async (payload) => {
          const grantsBefore = await h.store.rooms.listGrants({ roomId: 'r1' });
          const accepted = await publish(facilitator, 'rooms/r1/control', payload);
          const probe = grant('agent.probe', `probe_${++seq}`);
          expect(await publish(facilitator, 'rooms/r1/control', new TextEncoder().encode(JSON.stringify(probe)))).toBe(
            true,
          );
          await until(() => h.store.rooms.getGrant('r1', 'agent.probe', probe.payload.task_id));
          const changed = (await h.store.rooms.listGrants({ roomId: 'r1' })).filter(
            (g) => g.agentId !== 'agent.probe' && !grantsBefore.some((b) => JSON.stringify(b) === JSON.stringify(g)),
          );
          const parsed = parseEnvelope(payload);
          if (!accepted) counts.refusedByBroker++;
          else if (changed.length === 0) counts.dropped++;
          else counts.applied++;
          // A change needs a well-formed mic_grant or mic_revoke (AOR §5, §7).
          if (changed.length > 0) {
            expect(parsed.ok && (parsed.value.type === 'mic_grant' || parsed.value.type === 'mic_revoke')).toBe(true);
          }
          // No control message from a facilitator makes the gateway speak (it rejects candidates only).
          expect(
            onTopic('rooms/r1/control').every(
              (m) => !m.payload.includes('"type":"reject"') || !m.payload.includes('task_fuzz'),
            ),
          ).toBe(true);
        },
      ),
      { seed: SEED, numRuns: CASES.control, endOnFailure: true },
    );
    expect(counts.refusedByBroker + counts.dropped + counts.applied).toBe(CASES.control);
    expect(counts.refusedByBroker).toBeGreaterThan(0);
    expect(counts.dropped).toBeGreaterThan(0);
  });
});

describe('rooms/+/agents/+/heartbeat', () => {
  it(`changes presence for none of ${CASES.heartbeat} hostile heartbeats unless it is a heartbeat envelope`, async () => {
    let valid = 0;
    const topic = `rooms/r1/agents/${AGENT}/heartbeat`;
    await fc.assert(
      fc.asyncProperty(hostilePayload(heartbeat), async (payload) => {
        h.clock.now += 1_000; // a valid heartbeat then visibly moves lastSeenAt
        const before = JSON.stringify(presence.list('r1'));
        const count = onTopic(topic).length;
        // Over the heartbeat cap (decision AOR 20): refused before it is stored or routed.
        const fits = payload.byteLength <= MAX_HEARTBEAT_BYTES;
        expect(await publish(agent, topic, payload)).toBe(fits);
        if (!fits) return void expect(JSON.stringify(presence.list('r1'))).toBe(before);
        await routed(topic, count + 1);
        const parsed = parseEnvelope(payload);
        if (parsed.ok && parsed.value.type === 'heartbeat') {
          valid++;
          expect(presence.list('r1').find((p) => p.agentId === AGENT)?.lastSeenAt).toBe(h.clock.now);
        } else {
          expect(JSON.stringify(presence.list('r1'))).toBe(before);
        }
      }),
      { seed: SEED, numRuns: CASES.heartbeat, endOnFailure: true },
    );
    expect(valid).toBeGreaterThan(0);
    expect(valid).toBeLessThan(CASES.heartbeat);
  });
});

describe('rooms/+/agents/+/work', () => {
  it(`stores each of ${CASES.work} hostile work messages byte for byte in history and nothing else`, async () => {
    const topic = `rooms/r1/agents/${AGENT}/work`;
    await fc.assert(
      fc.asyncProperty(
        hostilePayload(() => ({ ...heartbeat(), type: 'result' })),
        async (payload) => {
          const grants = JSON.stringify(await h.store.rooms.listGrants({ roomId: 'r1' }));
          const others = w.received.filter((m) => m.topic !== topic).length;
          const count = onTopic(topic).length;
          const newest = (await h.store.rooms.listMessages({ roomId: 'r1', limit: 1, topicKinds: ['work'] }))
            .messages[0]?.cursor;
          // Over the work cap (decision AOR 20): refused before it is stored or routed.
          const fits = payload.byteLength <= MAX_WORK_BYTES;
          expect(await publish(agent, topic, payload)).toBe(fits);
          if (!fits)
            return void expect(
              (await h.store.rooms.listMessages({ roomId: 'r1', limit: 1, topicKinds: ['work'] })).messages[0]?.cursor,
            ).toBe(newest);
          await routed(topic, count + 1);
          const page = await h.store.rooms.listMessages({ roomId: 'r1', limit: 1, topicKinds: ['work'] });
          expect(Buffer.from(page.messages[0]!.payload).equals(Buffer.from(payload))).toBe(true);
          expect(w.received.filter((m) => m.topic !== topic).length).toBe(others);
          expect(JSON.stringify(await h.store.rooms.listGrants({ roomId: 'r1' }))).toBe(grants);
        },
      ),
      { seed: SEED, numRuns: CASES.work, endOnFailure: true },
    );
  });
});

describe('out-of-order and misaddressed protocol messages', () => {
  it('refuses a grant for a room nobody created: not routed, not stored', async () => {
    const g = { ...grant(AGENT, 'task_ghost'), room_id: 'ghost' };
    expect(await publish(facilitator, 'rooms/ghost/control', new TextEncoder().encode(JSON.stringify(g)))).toBe(false);
    expect(await h.store.rooms.getGrant('ghost', AGENT, 'task_ghost')).toBeUndefined();
    expect(w.received.some((m) => m.payload.includes(g.id))).toBe(false);
  });

  it('drops a revoke that comes before any grant, and a later grant for that task still works', async () => {
    const revoke = {
      id: `rev_${++seq}`,
      type: 'mic_revoke',
      room_id: 'r1',
      from: { kind: 'user', id: FACILITATOR },
      ts: nowS(),
      payload: { task_id: 'task_early', agent_id: AGENT, reason: 'early' },
    };
    expect(await publish(facilitator, 'rooms/r1/control', new TextEncoder().encode(JSON.stringify(revoke)))).toBe(true);
    const g = grant(AGENT, 'task_early', 1);
    await publish(facilitator, 'rooms/r1/control', new TextEncoder().encode(JSON.stringify(g)));
    const stored = await until(() => h.store.rooms.getGrant('r1', AGENT, 'task_early'));
    expect(stored.endedAt).toBeNull();
  });

  it('rejects a result for a task whose grant ended before it arrived (no budget spent)', async () => {
    const g = grant(AGENT, 'task_late', 5);
    await publish(facilitator, 'rooms/r1/control', new TextEncoder().encode(JSON.stringify(g)));
    await until(() => h.store.rooms.getGrant('r1', AGENT, 'task_late'));
    const revoke = {
      id: `rev_${++seq}`,
      type: 'mic_revoke',
      room_id: 'r1',
      from: { kind: 'user', id: FACILITATOR },
      ts: nowS(),
      payload: { task_id: 'task_late', agent_id: AGENT, reason: 'done' },
    };
    await publish(facilitator, 'rooms/r1/control', new TextEncoder().encode(JSON.stringify(revoke)));
    await until(async () => ((await h.store.rooms.getGrant('r1', AGENT, 'task_late'))?.endedAt ? true : undefined));
    const late = {
      ...candidate(),
      payload: { task_id: 'task_late', message_type: 'progress', content: { text: 'late' } },
    };
    await publish(agent, 'rooms/r1/public_candidates', new TextEncoder().encode(JSON.stringify(late)));
    const seen = await w.until('rooms/r1/control', `"message_id":"${late.id}"`);
    expect(JSON.parse(seen.at(-1)!.payload)).toMatchObject({ type: 'reject', payload: { reason: 'mic_revoked' } });
    expect((await h.store.rooms.getGrant('r1', AGENT, 'task_late'))?.spent).toBe(0);
  });

  it('approves a result before any ack: AOR §7 orders nothing within a grant (decision AOR 19)', async () => {
    const g = grant(AGENT, 'task_noack', 5);
    await publish(facilitator, 'rooms/r1/control', new TextEncoder().encode(JSON.stringify(g)));
    await until(() => h.store.rooms.getGrant('r1', AGENT, 'task_noack'));
    const result = {
      ...candidate(),
      payload: { task_id: 'task_noack', message_type: 'progress', content: { text: 'no ack first' } },
    };
    await publish(agent, 'rooms/r1/public_candidates', new TextEncoder().encode(JSON.stringify(result)));
    await w.until('rooms/r1/public', result.id);
    expect((await h.store.rooms.getGrant('r1', AGENT, 'task_noack'))?.spent).toBe(1);
  });

  it('rejects a candidate for room r2 published on room r1 with room_mismatch, and r2 sees nothing', async () => {
    const c = { ...candidate(), room_id: 'r2' };
    await publish(agent, 'rooms/r1/public_candidates', new TextEncoder().encode(JSON.stringify(c)));
    const seen = await w.until('rooms/r1/control', `"message_id":"${c.id}"`);
    expect(JSON.parse(seen.at(-1)!.payload)).toMatchObject({ payload: { reason: 'room_mismatch' } });
    expect(w.received.filter((m) => m.topic.startsWith('rooms/r2/') && m.payload.includes(c.id))).toEqual([]);
  });
});
