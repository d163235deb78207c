// GET /api/rooms/{id}/health against a whole Switchboard on either engine (room-health.test.ts,
// room-health-pg.test.ts): real agents publish candidates over MQTT, the gateway decides them, a
// facilitator's grant goes over the console's /mqtt, and the answer is checked against its schema.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RoomHealth } from '@shared/contract/agents';
import { hashPassword } from '../auth/password';
import { loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { connectClient, type TestClient } from './mqtt-clients';
import { sessionCookie } from './sessions';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const OBSERVER = 'did:key:z6MkHealthObserver';
const ROOM = 'health-room';

export function describeRoomHealth(env: () => Promise<Record<string, string>>): void {
  let sb: RunningSwitchboard;
  let facilitator: string;
  let observer: string;
  const clients: TestClient[] = [];
  let seq = 0;
  const nowS = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    sb = await startSwitchboard(loadConfig({ PORT: '0', MQTT_PORT: '0', DEMO: '0', ...(await env()) }));
    facilitator = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
    observer = await sessionCookie(sb.store, OBSERVER, 'observer');
    for (const agentId of ['agent.good', 'agent.rogue'])
      await sb.store.access.putAgentCredential({ agentId, passwordHash: await hashPassword('pw'), createdAt: 1 });
    await sb.rooms.create({ id: ROOM, name: 'Health', moderation: 'auto' });
  });
  afterAll(async () => {
    for (const c of clients) await c.client.endAsync(true);
    await sb?.close();
  });

  const health = (roomId: string, cookie: string | undefined) =>
    fetch(`${sb.url}/api/rooms/${encodeURIComponent(roomId)}/health`, { headers: cookie ? { cookie } : {} });

  const grant = async (agentId: string, taskId: string, max: number) => {
    const console_ = await connectClient(`${sb.url.replace('http', 'ws')}/mqtt`, {
      wsOptions: { headers: { cookie: facilitator, origin: sb.url } },
    });
    await console_.client.publishAsync(
      `rooms/${ROOM}/control`,
      JSON.stringify({
        id: `grant_${taskId}`,
        type: 'mic_grant',
        room_id: ROOM,
        from: { kind: 'user', id: FACILITATOR },
        ts: nowS(),
        payload: {
          task_id: taskId,
          agent_id: agentId,
          max_messages: max,
          allowed_message_types: ['result'],
          expires_at: nowS() + 3600,
        },
      }),
      { qos: 1 },
    );
    await console_.client.endAsync(true);
    while (!(await sb.store.rooms.getGrant(ROOM, agentId, taskId))) await new Promise((r) => setTimeout(r, 20));
  };

  const candidate = (agentId: string, taskId: string) =>
    JSON.stringify({
      id: `cand_${++seq}`,
      type: 'result',
      room_id: ROOM,
      from: { kind: 'agent', id: agentId },
      ts: nowS(),
      payload: { task_id: taskId, message_type: 'result', content: { text: `from ${agentId}` } },
    });

  /** Asks until `ready` holds (the gateway decides after the PUBACK); then the answer, checked. */
  async function healthUntil(ready: (h: RoomHealth) => boolean): Promise<RoomHealth> {
    for (;;) {
      const res = await health(ROOM, observer);
      expect(res.status).toBe(200);
      const body = RoomHealth.parse(await res.json());
      if (ready(body)) return body;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('shows the last hour from real candidates: per minute, approved, rejects by reason, the queue and the rogue', async () => {
    const empty = await healthUntil(() => true);
    expect(empty.agents).toEqual([]);
    expect(empty.decisions).toEqual({ approved: 0, rejected: [] });
    expect(empty.perMinute).toHaveLength(60);

    await grant('agent.good', 't1', 2);
    const good = await connectClient(sb.mqttUrl, { username: 'agent.good', password: 'pw' });
    const rogue = await connectClient(sb.mqttUrl, { username: 'agent.rogue', password: 'pw' });
    clients.push(good, rogue);
    const topic = `rooms/${ROOM}/public_candidates`;
    for (let i = 0; i < 2; i++) await good.client.publishAsync(topic, candidate('agent.good', 't1'), { qos: 1 });
    for (let i = 0; i < 3; i++) await rogue.client.publishAsync(topic, candidate('agent.rogue', 'none'), { qos: 1 });
    // Impersonation: the broker knows the publisher, so this reject is the rogue's too.
    await rogue.client.publishAsync(topic, candidate('agent.good', 't1'), { qos: 1 });
    // Not an envelope: rejected without a message id, so it counts for nobody.
    await rogue.client.publishAsync(topic, 'not json', { qos: 1 });
    // In review mode a good candidate waits for a facilitator.
    await grant('agent.good', 't2', 5);
    await sb.store.rooms.setModeration(ROOM, 'review');
    await good.client.publishAsync(topic, candidate('agent.good', 't2'), { qos: 1 });

    const h = await healthUntil((b) => b.reviewQueue.pending === 1 && b.decisions.rejected.length === 3);
    expect(h.roomId).toBe(ROOM);
    expect(h.decisions.approved).toBe(2);
    expect(h.decisions.rejected).toEqual([
      { reason: 'no_mic_grant', count: 3 },
      { reason: 'invalid_envelope', count: 1 },
      { reason: 'sender_mismatch', count: 1 },
    ]);
    expect(h.agents).toEqual([{ agentId: 'agent.rogue', rejects: 4, suspended: false }]);
    expect(h.reviewQueue.oldestAt).toBeGreaterThanOrEqual(h.since);
    expect(h.reviewQueue.oldestAt).toBeLessThanOrEqual(h.now);
    // Every message of the room is in the window, each counted once in its minute.
    const { messages } = await sb.store.rooms.listMessages({ roomId: ROOM, limit: 10_000 });
    expect(h.perMinute.reduce((sum, m) => sum + m.messages, 0)).toBe(messages.length);
    expect(h.perMinute[59]!.at).toBeLessThanOrEqual(h.now);
    expect(h.perMinute[0]!.at).toBe(h.since);
  });

  it('answers 404 ROOM_NOT_FOUND for an unknown room and 401 without a session', async () => {
    const missing = await health('no-such-room', observer);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('ROOM_NOT_FOUND');
    expect((await health(ROOM, undefined)).status).toBe(401);
  });
}
