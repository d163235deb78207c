// The whole demo through real parts (broker with the §8 ACL, SQLite, the gateway), sped up:
// a seed replays the same conversation, the well-behaved agents stay within their grants, and
// the rogue's attempts are all refused.
import { describe, expect, it } from 'vitest';
import type { Envelope } from '@shared/aor/envelope';
import { PASSWORD, startRoomHarness } from '../test-support/room-harness';
import type { DemoPace } from './demo-config';
import type { TrickReport } from './rogue-agent';
import { startDemo } from './start-demo';

const FAST: Partial<DemoPace> = {
  firstTaskDelayMs: 0,
  taskGapMs: [2, 10],
  stepDelayMs: [1, 4],
  answerDelayMs: [1, 4],
  askTimeoutMs: 10_000,
  grantWaitMs: 10_000,
  episodeTimeoutMs: 20_000,
  heartbeatIntervalMs: 50,
};

interface Run {
  /** (agent, message_type) of every approved disclosure on public, in order. */
  readonly approvals: string[];
  readonly envelopes: { topic: string; envelope: Envelope }[];
  readonly tricks: TrickReport[];
  readonly errors: unknown[];
}

async function runDemo(seed: number, maxEpisodes: number): Promise<Run> {
  const h = await startRoomHarness();
  const w = await h.watcher();
  const tricks: TrickReport[] = [];
  const errors: unknown[] = [];
  let n = 0;
  try {
    const demo = await startDemo({
      brokerUrl: h.url,
      provisionAgent: async () => PASSWORD,
      ensureRoom: async (id, name) => void (await h.rooms.create({ id, name, moderation: 'auto' })),
      publishAsFacilitator: (topic, envelope) => h.facilitatorPublish(topic, envelope),
      observe: (filter, handler) => h.broker.onMessage(filter, handler),
      seed,
      now: () => h.clock.now,
      newId: () => `t${++n}`,
      pace: FAST,
      maxEpisodes,
      onRogueTrick: (r) => tricks.push(r),
      onError: (e) => errors.push(e),
    });
    await demo.finished;
    await demo.stop();
  } finally {
    await h.close();
  }
  const envelopes = w.received
    .filter((m) => m.topic.startsWith('rooms/demo/'))
    .map((m) => ({ topic: m.topic, envelope: JSON.parse(m.payload) as Envelope }));
  const approvals = envelopes.flatMap(({ topic, envelope: e }) =>
    topic === 'rooms/demo/public' && e.type === 'result' ? [`${e.from.id}:${e.payload.message_type}`] : [],
  );
  return { approvals, envelopes, tricks, errors };
}

describe('the demo (decision "determinism")', () => {
  it('replays the same approvals for the same seed, keeps every grant, and refuses every rogue attempt', async () => {
    // Seed 2 has the agents ask questions in two rounds; the run is sped up, not reordered.
    const first = await runDemo(2, 8);
    const second = await runDemo(2, 8);
    expect(first.errors).toEqual([]);
    expect(second.approvals).toEqual(first.approvals);
    expect((await runDemo(1, 8)).approvals).not.toEqual(first.approvals);
    expect(second.tricks.map((t) => [t.trick, t.outcome])).toEqual(first.tricks.map((t) => [t.trick, t.outcome]));

    // Everyone had a turn (two rounds of a four-agent deck), with a visible mix of messages.
    const agents = new Set(first.approvals.map((a) => a.split(':')[0]));
    expect([...agents].sort()).toEqual(['agent.analyst', 'agent.researcher', 'agent.rogue', 'agent.scheduler']);
    for (const id of ['agent.analyst', 'agent.researcher', 'agent.scheduler'])
      expect(first.approvals).toContain(`${id}:result`);
    expect(first.approvals.some((a) => a.endsWith(':clarifying_question'))).toBe(true);

    // Grants (decision "within the grant"): never more than max_messages, only allowed types.
    const grants = first.envelopes.flatMap(({ envelope: e }) => (e.type === 'mic_grant' ? [e.payload] : []));
    for (const g of grants) {
      const used = first.envelopes.flatMap(({ topic, envelope: e }) =>
        topic === 'rooms/demo/public' &&
        e.type === 'result' &&
        e.from.id === g.agent_id &&
        e.payload.task_id === g.task_id
          ? [e.payload.message_type]
          : [],
      );
      expect(used.length).toBeLessThanOrEqual(g.max_messages);
      for (const type of used) expect(g.allowed_message_types).toContain(type);
    }

    // Questions got answers: a say that mentions the asker follows each clarifying question.
    const questions = first.envelopes.filter(
      ({ topic, envelope: e }) =>
        topic === 'rooms/demo/public' && e.type === 'result' && e.payload.message_type === 'clarifying_question',
    );
    const says = first.envelopes.flatMap(({ envelope: e }) => (e.type === 'say' ? [e.payload.text] : []));
    for (const { envelope: q } of questions) expect(says.some((text) => text.startsWith(`@${q.from.id} `))).toBe(true);

    // Only the rogue is ever refused: one reject per refused attempt, none for the others.
    const refused = first.tricks.filter((t) => t.outcome !== 'approved' && t.outcome !== 'refused_by_broker');
    const rejects = first.envelopes.filter(({ envelope: e }) => e.type === 'reject');
    expect(rejects).toHaveLength(refused.length);
    expect(new Set(first.tricks.map((t) => t.trick))).toEqual(
      new Set(['no_grant', 'direct_public', 'impersonate', 'wrong_type', 'spend', 'over_budget']),
    );
    expect(
      first.tricks.filter((t) => t.trick === 'direct_public').every((t) => t.outcome === 'refused_by_broker'),
    ).toBe(true);

    // Everyone said goodbye on stop.
    const offline = first.envelopes
      .filter(({ envelope: e }) => e.type === 'heartbeat' && e.payload.status === 'offline')
      .map(({ envelope: e }) => e.from.id);
    expect(offline.sort()).toEqual(['agent.analyst', 'agent.researcher', 'agent.rogue', 'agent.scheduler']);
  });

  it('lets a person assign a demo agent any task: it answers within that grant, about that goal', async () => {
    const h = await startRoomHarness();
    const w = await h.watcher();
    const F = { kind: 'user', id: 'did:key:z6MkPerson' } as const;
    const nowS = Math.floor(h.clock.now / 1000);
    try {
      const demo = await startDemo({
        brokerUrl: h.url,
        provisionAgent: async () => PASSWORD,
        ensureRoom: async (id, name) => void (await h.rooms.create({ id, name, moderation: 'auto' })),
        publishAsFacilitator: (topic, envelope) => h.facilitatorPublish(topic, envelope),
        observe: (filter, handler) => h.broker.onMessage(filter, handler),
        seed: 3,
        now: () => h.clock.now,
        pace: FAST,
        maxEpisodes: 0,
      });
      await demo.finished;
      await h.facilitatorPublish('rooms/demo/control', {
        id: 'grant_p',
        type: 'mic_grant',
        room_id: 'demo',
        from: F,
        ts: nowS,
        payload: {
          task_id: 'task_p',
          agent_id: 'agent.analyst',
          max_messages: 2,
          allowed_message_types: ['ack', 'result'],
          expires_at: nowS + 60,
        },
      });
      await h.facilitatorPublish('rooms/demo/agents/agent.analyst/inbox', {
        id: 'task_env_p',
        type: 'task',
        room_id: 'demo',
        from: F,
        ts: nowS,
        payload: { task_id: 'task_p', goal: 'Sanity-check the travel budget' },
      });
      const seen = await w.until('rooms/demo/public', '"message_type":"result"');
      const mine = seen.filter((m) => m.topic === 'rooms/demo/public').map((m) => JSON.parse(m.payload) as Envelope);
      expect(mine.map((e) => e.type === 'result' && e.payload.message_type)).toEqual(['ack', 'result']);
      expect(JSON.stringify(mine.at(-1))).toContain('Sanity-check the travel budget');
      await demo.stop();
    } finally {
      await h.close();
    }
  });
});
