// AOR §7 as properties: whatever sequence of grants, revokes, redeliveries, candidates (in
// automatic or review mode) and clock ticks happens, no approval ever breaks a grant's limits.
// The model below is deliberately naive: it remembers only the last acceptable grant per key
// (from a facilitator, naming the topic's room) and whether a revoke followed it, ignores every
// redelivery, and counts approvals per grant itself. That is enough because the generated clock
// never goes back, so first deliveries arrive in `ts` order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandidate, decideCandidate } from './decide-candidate';
import type { Envelope, ResultEnvelope } from './envelope';
import { spendGrant } from './grant-check';
import { applyControl, emptyGrantState, grantKeyId, type GrantKey, type GrantState } from './mic-grants';
import { MESSAGE_TYPES, type MessageType } from './payloads';
import type { GatewayRejectReason } from './reject-reasons';
import { CONTENT_EXAMPLES, T0 } from './test-support/fixtures';

const ROOMS = ['room_1', 'room_2'] as const;
const AGENTS = ['agent.a', 'agent.b'] as const;
const TASKS = ['task_1', 'task_2'] as const;
type SenderKind = 'agent' | 'user' | 'system';
type Event =
  | { kind: 'tick'; seconds: number }
  | {
      kind: 'grant';
      room: string;
      envRoom: string;
      agent: string;
      task: string;
      max: number;
      allowed: MessageType[];
      ttl: number;
      from: SenderKind;
    }
  | { kind: 'revoke'; room: string; envRoom: string; agent: string; task: string; from: SenderKind }
  | { kind: 'redeliver'; pick: number }
  | {
      kind: 'candidate';
      topicRoom: string;
      envRoom: string;
      authAgent: string;
      fromKind: SenderKind;
      fromId: string;
      task: string;
      messageType: MessageType;
      shape: 'result' | 'say' | 'truncated';
      mode: 'auto' | 'review';
    }
  | { kind: 'approve'; pick: number };

const otherRoom = (r: string): string => (r === ROOMS[0] ? ROOMS[1] : ROOMS[0]);
const otherAgent = (a: string): string => (a === AGENTS[0] ? AGENTS[1] : AGENTS[0]);

// Mostly the honest value, sometimes another one, so both paths are exercised.
const mostly = <T>(honest: fc.Arbitrary<T>, other: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: honest, weight: 9 }, { arbitrary: other, weight: 1 });
// One hot (room, agent, task) key, so candidates often meet grants and exhaust budgets.
const room = mostly(fc.constant(ROOMS[0]), fc.constantFrom(...ROOMS));
const agent = mostly(fc.constant(AGENTS[0]), fc.constantFrom(...AGENTS));
const task = mostly(fc.constant(TASKS[0]), fc.constantFrom(...TASKS));
const controlFrom = mostly(fc.constantFrom<SenderKind>('user', 'system'), fc.constant<SenderKind>('agent'));

const event: fc.Arbitrary<Event> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.constantFrom(0, 0.5, 1, 2, 3, 7) }),
    weight: 3,
  },
  {
    arbitrary: fc
      .record({
        room,
        agent,
        task,
        max: fc.integer({ min: 1, max: 3 }),
        allowed: fc.oneof(
          fc.constant<MessageType[]>([...MESSAGE_TYPES]),
          fc.subarray<MessageType>([...MESSAGE_TYPES], { minLength: 1 }),
        ),
        ttl: fc.integer({ min: 0, max: 12 }),
        from: controlFrom,
        moved: mostly(fc.constant(false), fc.constant(true)),
      })
      .map(({ moved, ...g }) => ({ ...g, kind: 'grant' as const, envRoom: moved ? otherRoom(g.room) : g.room })),
    weight: 2,
  },
  {
    arbitrary: fc
      .record({ room, agent, task, from: controlFrom, moved: mostly(fc.constant(false), fc.constant(true)) })
      .map(({ moved, ...r }) => ({ ...r, kind: 'revoke' as const, envRoom: moved ? otherRoom(r.room) : r.room })),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('redeliver' as const), pick: fc.nat() }), weight: 1 },
  {
    arbitrary: fc
      .record({
        topicRoom: room,
        otherRoom: mostly(fc.constant(false), fc.constant(true)),
        authAgent: agent,
        fromKind: mostly(fc.constant<SenderKind>('agent'), fc.constantFrom<SenderKind>('user', 'system')),
        spoof: mostly(fc.constant(false), fc.constant(true)),
        task,
        messageType: fc.constantFrom(...MESSAGE_TYPES),
        shape: mostly(fc.constant('result' as const), fc.constantFrom('say' as const, 'truncated' as const)),
        mode: fc.constantFrom('auto' as const, 'review' as const),
      })
      .map(({ otherRoom: moved, spoof, ...c }) => ({
        ...c,
        kind: 'candidate' as const,
        envRoom: moved ? otherRoom(c.topicRoom) : c.topicRoom,
        fromId: spoof ? otherAgent(c.authAgent) : c.authAgent,
      })),
    weight: 8,
  },
  { arbitrary: fc.record({ kind: fc.constant('approve' as const), pick: fc.nat() }), weight: 3 },
);

const events = fc.array(event, { minLength: 20, maxLength: 120, size: 'medium' });

const INVARIANTS = ['budget', 'expiry', 'revoke', 'types', 'room', 'sender', 'grant', 'purity'] as const;
type Invariant = (typeof INVARIANTS)[number];

interface ModelGrant {
  readonly id: string;
  readonly max: number;
  readonly allowed: readonly MessageType[];
  readonly expiresAt: number;
  revoked: boolean;
}

interface Pending {
  readonly envelope: ResultEnvelope;
  readonly grantKey: GrantKey;
  readonly topicRoom: string;
  readonly authAgent: string;
}

interface Run {
  readonly violations: Record<Invariant, string[]>;
  readonly approvals: number;
  readonly reasons: Set<GatewayRejectReason>;
  readonly budgetsFilled: number;
}

function run(sequence: readonly Event[]): Run {
  const violations = Object.fromEntries(INVARIANTS.map((name) => [name, [] as string[]])) as Record<
    Invariant,
    string[]
  >;
  const reasons = new Set<GatewayRejectReason>();
  let state: GrantState = emptyGrantState;
  let now = T0;
  let approvals = 0;
  let serial = 0;
  const sent: { topicRoom: string; envelope: Envelope }[] = [];
  const inForce = new Map<string, ModelGrant>(); // the model's own view of grants
  const counts = new Map<string, number>();
  const pending: Pending[] = [];

  const control = (topicRoom: string, envelope: Envelope, first: boolean, valid: boolean) => {
    const applied = applyControl(state, envelope, topicRoom);
    if (applied.ok) state = applied.value.state;
    if (!first || !valid) return;
    const p = envelope.payload as { agent_id: string; task_id: string };
    const key = grantKeyId({ roomId: topicRoom, agentId: p.agent_id, taskId: p.task_id });
    if (envelope.type === 'mic_grant') {
      const g = envelope.payload;
      inForce.set(key, {
        id: envelope.id,
        max: g.max_messages,
        allowed: g.allowed_message_types,
        expiresAt: g.expires_at,
        revoked: false,
      });
    } else {
      const g = inForce.get(key);
      if (g) g.revoked = true;
    }
  };

  const approved = (via: string, p: Pending) => {
    approvals++;
    const { envelope, grantKey, topicRoom, authAgent } = p;
    const at = `${via} ${envelope.id} at ${now}`;
    if (envelope.room_id !== topicRoom || grantKey.roomId !== topicRoom) violations.room.push(at);
    if (envelope.from.kind !== 'agent' || envelope.from.id !== authAgent || grantKey.agentId !== authAgent)
      violations.sender.push(at);
    const g = inForce.get(grantKeyId(grantKey));
    if (!g) return void violations.grant.push(at);
    if (g.revoked) violations.revoke.push(at);
    if (Math.floor(now) > g.expiresAt) violations.expiry.push(`${at} > ${g.expiresAt}`);
    if (!g.allowed.includes(envelope.payload.message_type)) violations.types.push(at);
    const count = (counts.get(g.id) ?? 0) + 1;
    counts.set(g.id, count);
    if (count > g.max) violations.budget.push(`${at}: ${count} > ${g.max}`);
  };

  for (const e of sequence) {
    const ts = Math.floor(now);
    switch (e.kind) {
      case 'tick':
        now += e.seconds;
        break;
      case 'grant':
      case 'revoke': {
        const payload =
          e.kind === 'grant'
            ? {
                task_id: e.task,
                agent_id: e.agent,
                max_messages: e.max,
                allowed_message_types: e.allowed,
                expires_at: ts + e.ttl,
              }
            : { task_id: e.task, agent_id: e.agent };
        const envelope = {
          id: `c${serial++}`,
          type: e.kind === 'grant' ? 'mic_grant' : 'mic_revoke',
          room_id: e.envRoom,
          from: { kind: e.from, id: 'op' },
          ts,
          payload,
        } as Envelope;
        sent.push({ topicRoom: e.room, envelope });
        control(e.room, envelope, true, e.from !== 'agent' && e.envRoom === e.room);
        break;
      }
      case 'redeliver': {
        const again = sent[e.pick % Math.max(1, sent.length)];
        if (again) control(again.topicRoom, again.envelope, false, false);
        break;
      }
      case 'candidate': {
        const envelope = {
          id: `m${serial++}`,
          type: e.shape === 'say' ? 'say' : 'result',
          room_id: e.envRoom,
          from: { kind: e.fromKind, id: e.fromId },
          ts,
          payload:
            e.shape === 'say'
              ? { text: 'hi' }
              : { task_id: e.task, message_type: e.messageType, content: CONTENT_EXAMPLES[e.messageType] },
        };
        const text = JSON.stringify(envelope);
        const input = {
          bytes: e.shape === 'truncated' ? text.slice(0, -1) : text,
          topicRoomId: e.topicRoom,
          authenticatedAgentId: e.authAgent,
          grants: state,
          now,
        };
        const checked = checkCandidate(input);
        if (checked.verdict === 'reject') reasons.add(checked.reason);
        if (e.mode === 'review') {
          if (checked.verdict === 'approve')
            pending.push({
              envelope: checked.envelope,
              grantKey: checked.grantKey,
              topicRoom: e.topicRoom,
              authAgent: e.authAgent,
            });
          break;
        }
        const decided = decideCandidate(input);
        if (decided.verdict !== checked.verdict) violations.purity.push(`check and decide disagree on ${envelope.id}`);
        if (decided.verdict === 'reject' && decided.state !== state)
          violations.purity.push(`reject changed state: ${envelope.id}`);
        state = decided.state;
        if (decided.verdict === 'approve')
          approved('auto', {
            envelope: decided.envelope,
            grantKey: decided.grantKey,
            topicRoom: e.topicRoom,
            authAgent: e.authAgent,
          });
        break;
      }
      case 'approve': {
        if (pending.length === 0) break;
        const [item] = pending.splice(e.pick % pending.length, 1) as [Pending];
        const spent = spendGrant(state, item.grantKey, { messageType: item.envelope.payload.message_type, now });
        if (!spent.ok) {
          reasons.add(spent.error.code);
          break;
        }
        state = spent.value.state;
        approved('review', item);
        break;
      }
    }
  }
  const budgetsFilled = [...inForce.values()].filter((g) => counts.get(g.id) === g.max).length;
  return { violations, approvals, reasons, budgetsFilled };
}

const SEED = 42;
const RUNS = 400;

describe('no sequence of candidates gets an agent past its mic (AOR §7)', () => {
  const what: Record<Invariant, string> = {
    budget: 'past max_messages',
    expiry: 'past expires_at',
    revoke: 'past a revoke',
    types: 'outside its allowed message types',
    room: 'into another room',
    sender: "under another agent's name",
    grant: 'without a grant',
    purity: 'through a check that disagrees with the decision, or a reject that spends',
  };

  it.each(INVARIANTS.map((name) => [name, what[name]] as const))('%s: never %s', (name) => {
    fc.assert(
      fc.property(events, (sequence) => {
        expect(run(sequence).violations[name]).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('the generator reaches every gateway reason, approvals and full budgets (the properties are not vacuous)', () => {
    const runs = fc.sample(events, { seed: SEED, numRuns: RUNS }).map(run);
    const reasons = new Set(runs.flatMap((r) => [...r.reasons]));
    expect([...reasons].sort()).toEqual(
      [
        'invalid_envelope',
        'message_limit_exceeded',
        'message_type_not_allowed',
        'mic_grant_expired',
        'mic_revoked',
        'no_mic_grant',
        'room_mismatch',
        'sender_mismatch',
      ].sort(),
    );
    expect(runs.reduce((n, r) => n + r.approvals, 0)).toBeGreaterThan(RUNS);
    expect(runs.reduce((n, r) => n + r.budgetsFilled, 0)).toBeGreaterThan(RUNS / 10);
  });
});
