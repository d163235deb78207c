// The agent client against real parts: the embedded broker with the §8 ACL, SQLite and the
// gateway (server/test-support/room-harness.ts). Facilitator messages are published as the
// server publishes them; what reaches public and control is read back from the broker.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Envelope } from '@shared/aor/envelope';
import { PASSWORD, startRoomHarness, type RoomHarness } from '@server/test-support/room-harness';
import {
  connectAgent,
  isTaskStopped,
  type AgentClient,
  type ConnectAgentOptions,
  type TaskContext,
} from './agent-client';

let h: RoomHarness;
let w: Awaited<ReturnType<RoomHarness['watcher']>>;
const agents: AgentClient[] = [];
let seq = 0;
const F = { kind: 'user', id: 'demo.facilitator' } as const;
const nowS = () => Math.floor(h.clock.now / 1000);

async function agent(agentId: string, over: Partial<ConnectAgentOptions> = {}): Promise<AgentClient> {
  const a = await connectAgent({
    url: h.url,
    agentId,
    password: PASSWORD,
    rooms: ['r1'],
    description: `${agentId} — under test`,
    now: () => h.clock.now,
    reconnectPeriodMs: 0,
    ...over,
  });
  agents.push(a);
  return a;
}

const grant = (
  agentId: string,
  taskId: string,
  max = 6,
  types = ['ack', 'clarifying_question', 'progress', 'finding', 'result'],
) => ({
  id: `grant_${++seq}`,
  type: 'mic_grant',
  room_id: 'r1',
  from: F,
  ts: nowS(),
  payload: {
    task_id: taskId,
    agent_id: agentId,
    max_messages: max,
    allowed_message_types: types,
    expires_at: nowS() + 300,
  },
});
const task = (taskId: string, goal = 'Find 3 options with pros/cons') => ({
  id: `task_env_${++seq}`,
  type: 'task',
  room_id: 'r1',
  from: F,
  ts: nowS(),
  payload: { task_id: taskId, goal, format: 'bullets', deadline: nowS() + 300 },
});
const say = (text: string) => ({
  id: `say_${++seq}`,
  type: 'say',
  room_id: 'r1',
  from: F,
  ts: nowS(),
  payload: { text },
});
const revoke = (agentId: string, taskId: string) => ({
  id: `revoke_${++seq}`,
  type: 'mic_revoke',
  room_id: 'r1',
  from: F,
  ts: nowS(),
  payload: { task_id: taskId, agent_id: agentId, reason: 'task_cancelled' },
});

/** Publishes a grant and waits until the gateway has stored it, as a facilitator's console would. */
async function grantAndWait(g: ReturnType<typeof grant>) {
  await h.facilitatorPublish('rooms/r1/control', g);
  for (let i = 0; i < 200 && !(await h.store.rooms.getGrant('r1', g.payload.agent_id, g.payload.task_id)); i++)
    await new Promise((r) => setImmediate(r));
}

const envelopes = (topic: string) =>
  w.received.filter((m) => m.topic === topic).map((m) => JSON.parse(m.payload) as Envelope);

/** The signal tracks the task while its handler runs, so handlers under test wait on it. */
const untilAborted = (signal: AbortSignal) =>
  signal.aborted
    ? Promise.resolve()
    : new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

beforeEach(async () => {
  h = await startRoomHarness();
  await h.rooms.create({ id: 'r1', name: 'Room one', moderation: 'auto' });
  w = await h.watcher();
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
  await h.close();
});

describe('connecting (AOR §8 credentials, §5.5 heartbeats)', () => {
  it.each([4, 5] as const)(
    'connects over MQTT v%i, heartbeats with its description, and goes offline on close',
    async (protocolVersion) => {
      const a = await agent('agent.researcher', { protocolVersion, heartbeatIntervalMs: 20 });
      const topic = 'rooms/r1/agents/agent.researcher/heartbeat';
      await w.until(topic, '"description"');
      // More than one: the interval keeps them coming.
      while (envelopes(topic).length < 3) await new Promise((r) => setTimeout(r, 5));
      const first = envelopes(topic)[0]!;
      expect(first).toMatchObject({
        type: 'heartbeat',
        room_id: 'r1',
        from: { kind: 'agent', id: 'agent.researcher' },
        payload: { ts: nowS(), description: 'agent.researcher — under test' },
      });
      await a.close();
      const seen = await w.until(topic, '"status":"offline"');
      expect(JSON.parse(seen.at(-1)!.payload).payload).toEqual({ ts: nowS(), status: 'offline' });
    },
  );

  it('is refused with a wrong password', async () => {
    await expect(agent('agent.researcher', { password: 'nope' })).rejects.toThrow(
      /Bad User Name or Password|Not authorized/i,
    );
  });

  it('marks itself offline through its last will when the socket dies (decision "will")', async () => {
    const a = await agent('agent.analyst', { rooms: ['r1'] });
    const topic = 'rooms/r1/agents/agent.analyst/heartbeat';
    await w.until(topic, '"description"');
    a.mqtt.stream.destroy();
    const seen = await w.until(topic, '"status":"offline"');
    const will = JSON.parse(seen.at(-1)!.payload) as Envelope;
    expect(will).toMatchObject({
      type: 'heartbeat',
      room_id: 'r1',
      from: { kind: 'agent', id: 'agent.analyst' },
      payload: { status: 'offline', ts: nowS() },
    });
    // The will is a valid §5.5 heartbeat, and the first room's only (decision "will room").
    expect(w.received.filter((m) => m.payload.includes('"status":"offline"')).map((m) => m.topic)).toEqual([topic]);
  });
});

describe('tasks (AOR §5.2) under a mic grant (§5.3) through the gateway (§7)', () => {
  it('publishes ack, progress, finding and result, each approved on public byte for byte within the budget', async () => {
    const a = await agent('agent.researcher');
    const outcomes: string[] = [];
    const done = deferred<TaskContext>();
    a.onTask(async (t, ctx) => {
      const g = await ctx.waitForGrant(5_000);
      expect(g).toMatchObject({ taskId: 'task_1', maxMessages: 4, spent: 0, remaining: 4 });
      outcomes.push((await ctx.ack('On it.')).status);
      outcomes.push((await ctx.progress('Reviewed pricing; checking scaling next.')).status);
      outcomes.push((await ctx.finding(['Option A is 30% cheaper', 'Option B has built-in HA'])).status);
      expect(ctx.grant).toMatchObject({ spent: 3, remaining: 1 });
      outcomes.push((await ctx.result(`Recommendation for: ${t.goal}`)).status);
      // The budget is spent: the gateway ends the grant, which the context sees as a revoke.
      await untilAborted(ctx.revoked);
      done.resolve(ctx);
    });
    await grantAndWait(grant('agent.researcher', 'task_1', 4));
    await h.facilitatorPublish('rooms/r1/agents/agent.researcher/inbox', task('task_1'));
    const ctx = await done.promise;
    expect(outcomes).toEqual(['approved', 'approved', 'approved', 'approved']);
    await w.until('rooms/r1/public', '"message_type":"result"');
    const published = envelopes('rooms/r1/public').filter((e) => e.type === 'result');
    expect(published.map((e) => e.type === 'result' && e.payload.message_type)).toEqual([
      'ack',
      'progress',
      'finding',
      'result',
    ]);
    const candidates = w.received.filter((m) => m.topic === 'rooms/r1/public_candidates').map((m) => m.payload);
    expect(
      w.received.filter((m) => m.topic === 'rooms/r1/public' && m.payload.includes('"result"')).map((m) => m.payload),
    ).toEqual(candidates);
    expect(ctx.grant).toMatchObject({ spent: 4, remaining: 0, revoked: true, revokeReason: 'message_limit_exceeded' });
    expect(ctx.revoked.reason).toMatchObject({ name: 'MicRevokedError', reason: 'message_limit_exceeded' });
    expect(ctx.canSend('progress')).toBe(false);
  });

  it('waits for a grant that comes after the task, and reports a rejected candidate with its reason', async () => {
    const a = await agent('agent.researcher');
    const result = deferred<unknown>();
    a.onTask(async (_t, ctx) => {
      expect(ctx.grant).toBeUndefined();
      expect(ctx.canSend('ack')).toBe(false);
      await ctx.waitForGrant(5_000);
      // The grant allows no risk: the gateway refuses it and the context says why.
      result.resolve(
        await ctx.risk({
          text: 'Direct publish bypasses moderation.',
          severity: 'high',
          mitigation: 'Enforce Gateway ACLs',
        }),
      );
    });
    await h.facilitatorPublish('rooms/r1/agents/agent.researcher/inbox', task('task_2'));
    await grantAndWait(grant('agent.researcher', 'task_2', 3, ['ack', 'result']));
    expect(await result.promise).toMatchObject({ status: 'rejected', reason: 'message_type_not_allowed' });
  });

  it('times out waiting for a grant that never comes', async () => {
    const a = await agent('agent.researcher');
    const got = deferred<unknown>();
    a.onTask(async (_t, ctx) => got.resolve(await ctx.waitForGrant(30)));
    await h.facilitatorPublish('rooms/r1/agents/agent.researcher/inbox', task('task_3'));
    expect(await got.promise).toBeUndefined();
  });

  it('refuses to build an artifact link that is not http(s) and sends nothing', async () => {
    const a = await agent('agent.researcher');
    const got = deferred<unknown>();
    a.onTask(async (_t, ctx) => {
      await ctx.waitForGrant(5_000);
      got.resolve(await ctx.artifact('Diagram', 'javascript:alert(1)').catch((e: { code?: string }) => e.code));
    });
    await grantAndWait(grant('agent.researcher', 'task_4', 3, ['artifact_link']));
    await h.facilitatorPublish('rooms/r1/agents/agent.researcher/inbox', task('task_4'));
    expect(await got.promise).toBe('invalid_envelope');
    expect(envelopes('rooms/r1/public_candidates')).toEqual([]);
  });
});

describe('ask (AOR §6.2: the user replies with say)', () => {
  it('resolves with the next say on public that mentions the agent, not one that mentions another', async () => {
    const a = await agent('agent.researcher');
    const answer = deferred<string | undefined>();
    a.onTask(async (_t, ctx) => {
      await ctx.waitForGrant(5_000);
      const text = await ctx.ask('Should this target EMQX or Mosquitto?', 10_000);
      answer.resolve(text);
      await ctx.result(`Going with: ${text}`);
    });
    await grantAndWait(grant('agent.researcher', 'task_5'));
    await h.facilitatorPublish('rooms/r1/agents/agent.researcher/inbox', task('task_5'));
    await w.until('rooms/r1/public', 'clarifying_question');
    await h.facilitatorPublish('rooms/r1/public', say('@agent.researcher.v2 not you'));
    await h.facilitatorPublish('rooms/r1/public', say('Lunch is at noon'));
    await h.facilitatorPublish('rooms/r1/public', say('@agent.researcher Mosquitto, please.'));
    expect(await answer.promise).toBe('@agent.researcher Mosquitto, please.');
    await w.until('rooms/r1/public', 'Going with');
  });

  it('resolves undefined when the question itself is rejected', async () => {
    const a = await agent('agent.researcher');
    const answer = deferred<string | undefined>();
    a.onTask(async (_t, ctx) => {
      await ctx.waitForGrant(5_000);
      answer.resolve(await ctx.ask('Which region?', 10_000));
    });
    await grantAndWait(grant('agent.researcher', 'task_6', 3, ['ack', 'result']));
    await h.facilitatorPublish('rooms/r1/agents/agent.researcher/inbox', task('task_6'));
    expect(await answer.promise).toBeUndefined();
  });
});

describe('revocation (AOR §5.4)', () => {
  it('aborts the task, and nothing more is published after the revoke is seen', async () => {
    const a = await agent('agent.researcher');
    const acked = deferred<void>();
    const after = deferred<unknown>();
    a.onTask(async (_t, ctx) => {
      await ctx.waitForGrant(5_000);
      await ctx.ack('On it.');
      acked.resolve();
      await untilAborted(ctx.revoked);
      // A handler that ignores the signal still cannot speak: the publish throws the revoke.
      after.resolve(await ctx.progress('Still talking').catch((e: unknown) => e));
    });
    await grantAndWait(grant('agent.researcher', 'task_7'));
    await h.facilitatorPublish('rooms/r1/agents/agent.researcher/inbox', task('task_7'));
    await acked.promise;
    await h.facilitatorPublish('rooms/r1/control', revoke('agent.researcher', 'task_7'));
    const error = await after.promise;
    expect(isTaskStopped(error)).toBe(true);
    expect(error).toMatchObject({ name: 'MicRevokedError', taskId: 'task_7', reason: 'task_cancelled' });
    // A sentinel from another agent sent now arrives after anything the revoked one had sent.
    const other = await agent('agent.analyst');
    await grantAndWait(grant('agent.analyst', 'task_s', 1, ['ack']));
    await other.submit({
      id: 'sentinel_1',
      type: 'result',
      room_id: 'r1',
      from: { kind: 'agent', id: 'agent.analyst' },
      ts: nowS(),
      payload: { task_id: 'task_s', message_type: 'ack', content: { text: 'sentinel' } },
    });
    const seen = await w.until('rooms/r1/public_candidates', 'sentinel_1');
    const fromResearcher = seen.filter(
      (m) => m.topic === 'rooms/r1/public_candidates' && m.payload.includes('"id":"agent.researcher"'),
    );
    expect(fromResearcher.map((m) => JSON.parse(m.payload).payload.message_type)).toEqual(['ack']);
  });

  it("aborts on the gateway's end-of-grant revoke, with its reason", async () => {
    const a = await agent('agent.researcher');
    const stopped = deferred<unknown>();
    a.onTask(async (_t, ctx) => {
      await ctx.waitForGrant(5_000);
      await ctx.ack('On it.');
      await untilAborted(ctx.revoked);
      stopped.resolve(ctx.revoked.reason);
    });
    await grantAndWait(grant('agent.researcher', 'task_8', 1, ['ack']));
    await h.facilitatorPublish('rooms/r1/agents/agent.researcher/inbox', task('task_8'));
    expect(await stopped.promise).toMatchObject({ name: 'MicRevokedError', reason: 'message_limit_exceeded' });
  });
});
