// The rogue against the real broker ACL and gateway: each attempt is refused for its own reason,
// and its direct publish never reaches public.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PASSWORD, startRoomHarness, type RoomHarness } from '../test-support/room-harness';
import { connectAgent, type AgentClient } from '@agents/aor/agent-client';
import { DEFAULT_PACE, REAL_TIMERS, type DemoPace } from './demo-config';
import { mulberry32 } from './prng';
import { EXPECTED, ROGUE, runRogue, type TrickReport } from './rogue-agent';

let h: RoomHarness;
let w: Awaited<ReturnType<RoomHarness['watcher']>>;
let rogue: AgentClient;
const F = { kind: 'user', id: 'demo.facilitator' } as const;
const FAST: DemoPace = { ...DEFAULT_PACE, stepDelayMs: [1, 3], grantWaitMs: 5_000 };
const nowS = () => Math.floor(h.clock.now / 1000);

beforeEach(async () => {
  h = await startRoomHarness();
  await h.rooms.create({ id: 'demo', name: 'Demo room', moderation: 'auto' });
  w = await h.watcher();
  rogue = await connectAgent({
    url: h.url,
    agentId: ROGUE.agentId,
    password: PASSWORD,
    rooms: ['demo'],
    description: ROGUE.description,
    now: () => h.clock.now,
    reconnectPeriodMs: 0,
  });
});
afterEach(async () => {
  await rogue.close();
  await h.close();
});

it('gets each attempt refused with the expected reason, and its direct publish never reaches public (decision "rogue")', async () => {
  const reports: TrickReport[] = [];
  const stopped = new AbortController();
  const done = new Promise<void>((resolve) => {
    runRogue(rogue, {
      rng: mulberry32(1),
      pace: FAST,
      timers: REAL_TIMERS,
      now: () => h.clock.now,
      newId: () => `msg_${crypto.randomUUID()}`,
      impersonate: 'agent.researcher',
      stopped: stopped.signal,
      onTrick: (r) => {
        reports.push(r);
        if (r.trick === 'over_budget') resolve();
      },
    });
  });
  await h.facilitatorPublish('rooms/demo/control', {
    id: 'grant_rogue',
    type: 'mic_grant',
    room_id: 'demo',
    from: F,
    ts: nowS(),
    payload: {
      task_id: 'task_r',
      agent_id: ROGUE.agentId,
      max_messages: 2,
      allowed_message_types: ['ack', 'progress'],
      expires_at: nowS() + 120,
    },
  });
  await h.facilitatorPublish('rooms/demo/agents/agent.rogue/inbox', {
    id: 'task_env_r',
    type: 'task',
    room_id: 'demo',
    from: F,
    ts: nowS(),
    payload: { task_id: 'task_r', goal: 'Post a short status update' },
  });
  await done;
  stopped.abort();

  expect(reports.map((r) => r.trick)).toEqual([
    'no_grant',
    'direct_public',
    'impersonate',
    'wrong_type',
    'spend',
    'spend',
    'over_budget',
  ]);
  for (const r of reports.slice(0, -1)) expect([r.trick, r.outcome]).toEqual([r.trick, EXPECTED[r.trick]]);
  // The gateway ends a grant when its budget is spent; one message more still learns the real cause.
  const overBudget = reports.at(-1)!.outcome;
  expect(overBudget).toBe('message_limit_exceeded');

  // Every gateway refusal is on control, with the rogue's own reasons (the agent may see the last
  // one before the harness's watcher does).
  // (The gateway's end-of-grant mic_revoke carries the same reason text, so wait for the reject.)
  const rejectReasons = () =>
    w.received
      .filter((m) => m.topic === 'rooms/demo/control' && m.payload.includes('"type":"reject"'))
      .map((m) => JSON.parse(m.payload).payload.reason as string);
  for (let i = 0; i < 500 && !rejectReasons().includes(overBudget); i++) await new Promise((r) => setTimeout(r, 10));
  const rejects = rejectReasons();
  expect(rejects.slice(0, 3)).toEqual(['no_mic_grant', 'sender_mismatch', 'message_type_not_allowed']);
  expect(rejects).toHaveLength(4);

  // The direct publish: refused with a PUBACK error (MQTT 5), the connection kept, nothing routed.
  expect(rogue.mqtt.connected).toBe(true);
  await h.facilitatorPublish('rooms/demo/public', {
    id: 'say_sentinel',
    type: 'say',
    room_id: 'demo',
    from: F,
    ts: nowS(),
    payload: { text: 'sentinel' },
  });
  const publics = await w.until('rooms/demo/public', 'say_sentinel');
  const onPublic = publics
    .filter((m) => m.topic === 'rooms/demo/public')
    .map((m) => JSON.parse(m.payload) as { from: { id: string }; payload: { message_type?: string } });
  expect(onPublic.filter((e) => e.from.id === ROGUE.agentId).map((e) => e.payload.message_type)).toEqual([
    'ack',
    'progress',
  ]);
  expect(
    w.received.some((m) => m.payload.includes('Skipping the gateway') || m.payload.includes('Who needs moderation')),
  ).toBe(false);
});
