import { REJECT_REASONS } from '@shared/aor/reject-reasons';
import type { SchedulingThreadView } from '@shared/oacop/scheduling-projection';
import { describe, expect, it } from 'vitest';
import { negotiationStory, termsWords } from './negotiation-story';
import { shortId } from '@web/lib/names/name-book';
import { roomStory, type RoomEvent } from './room-story';
import { schedulingStory, slotWords } from './scheduling-story';
import { agentName, clip } from './story-line';

const T = Date.parse('2026-05-05T08:00:00Z');
const OP = 'did:key:z6MkOperator';
const env = (
  key: string,
  type: string,
  from: Record<string, string>,
  payload: Record<string, unknown>,
  topicKind = 'public',
  at = T,
): RoomEvent => ({
  key,
  receivedAt: at,
  topicKind,
  envelope: { id: key, type, room_id: 'demo', from, ts: T / 1000, payload },
});
const agent = (id: string) => ({ kind: 'agent', id });

describe('room story', () => {
  const task = 'task_guided1';
  const events: RoomEvent[] = [
    env(
      'm1',
      'mic_grant',
      { kind: 'user', id: OP },
      {
        task_id: task,
        agent_id: 'agent.researcher',
        max_messages: 5,
        allowed_message_types: ['ack', 'result'],
        expires_at: T / 1000 + 180,
      },
      'control',
    ),
    env('m2', 'task', { kind: 'user', id: OP }, { task_id: task, goal: 'Compare three weather APIs' }, 'inbox'),
    env('m3', 'result', agent('agent.researcher'), { task_id: task, message_type: 'ack', content: { text: 'On it.' } }),
    env('m3', 'result', agent('agent.researcher'), { task_id: task, message_type: 'ack', content: { text: 'On it.' } }),
    env('m4', 'result', agent('agent.researcher'), {
      task_id: task,
      message_type: 'finding',
      content: { bullets: ['Open-Meteo is free', 'B', 'C'] },
    }),
    env('m5', 'result', agent('agent.researcher'), {
      task_id: task,
      message_type: 'risk',
      content: { text: 'Rate limits', severity: 'high' },
    }),
    env('m6', 'result', agent('agent.researcher'), {
      task_id: task,
      message_type: 'result',
      content: { text: '<b>Pick Open-Meteo</b>' },
    }),
    env(
      'm7',
      'reject',
      { kind: 'system', id: 'gateway' },
      { task_id: task, reason: 'message_limit_exceeded' },
      'control',
    ),
    env(
      'm8',
      'mic_revoke',
      { kind: 'agent', id: 'demo.facilitator' },
      { task_id: task, agent_id: 'agent.researcher', reason: 'task_complete' },
      'control',
    ),
    env('m9', 'say', { kind: 'user', id: OP }, { text: 'Welcome, everyone' }),
    env('m10', 'result', agent('agent.analyst'), {
      task_id: 'task_other',
      message_type: 'ack',
      content: { text: 'Mine' },
    }),
    env(
      'm11',
      'result',
      agent('agent.analyst'),
      { task_id: task, message_type: 'ack', content: { text: 'x' } },
      'public_candidates',
    ),
    { key: 'junk', receivedAt: T, topicKind: 'public', envelope: 'not json' },
  ];

  it('tells one task in words, once per message, without ids, and keeps agent text as text', () => {
    const lines = roomStory(events, { taskId: task });
    expect(lines.map((l) => l.text)).toEqual([
      'The facilitator gave Researcher the mic for 5 messages, 3 minutes.',
      'The facilitator asked: “Compare three weather APIs”',
      'Researcher took the task.',
      'Researcher found 3 points: Open-Meteo is free',
      'Researcher flagged a high risk: Rate limits',
      'Researcher finished: <b>Pick Open-Meteo</b>',
      'Switchboard held back a message: it had used up its messages.',
      'The demo facilitator took the mic back from Researcher: the task is done.',
    ]);
    expect(lines.map((l) => l.tone)).toEqual([
      'step',
      'step',
      'step',
      'step',
      'problem',
      'milestone',
      'problem',
      'step',
    ]);
    expect(lines.some((l) => /did:|task_|agent\./.test(l.text))).toBe(false);
  });

  it('quotes the answer to a clarifying question as its answerer’s, the operator as “You”', () => {
    const asked = [
      events[1]!,
      env('q1', 'result', agent('agent.researcher'), {
        task_id: task,
        message_type: 'clarifying_question',
        content: { question: 'Free tiers only?' },
      }),
      env('q2', 'say', { kind: 'user', id: OP }, { text: 'Unrelated chatter' }),
      env('q3', 'say', agent('demo.facilitator'), { text: '@agent.researcher Include paid tiers.' }),
      env('q4', 'say', agent('demo.facilitator'), { text: '@agent.researcher Asked twice?' }),
      env('q5', 'result', agent('agent.researcher'), {
        task_id: task,
        message_type: 'result',
        content: { text: 'Open-Meteo (following the answer to my question: “Include paid tiers.”)' },
      }),
    ];
    expect(roomStory(asked, { taskId: task, names: { [OP]: 'You' } }).map((l) => l.text)).toEqual([
      'You asked: “Compare three weather APIs”',
      'Researcher asked: “Free tiers only?”',
      'The demo facilitator answered Researcher: “Include paid tiers.”',
      'Researcher finished: Open-Meteo (following the answer to my question: “Include paid tiers.”)',
    ]);
  });

  it('keeps says and other tasks without a task filter, and honours known names', () => {
    const lines = roomStory(events, { names: { 'agent.analyst': 'Ana the analyst' } });
    expect(lines.map((l) => l.text)).toContain('The facilitator said: “Welcome, everyone”');
    expect(lines.map((l) => l.text)).toContain('Ana the analyst took the task.');
  });

  it('puts every reject reason of AOR into words, and each in different words', () => {
    const texts = REJECT_REASONS.map((reason, i) => {
      const lines = roomStory([env(`r${i}`, 'reject', { kind: 'system', id: 'gateway' }, { reason }, 'control')]);
      expect(lines).toHaveLength(1);
      return lines[0]?.text ?? '';
    });
    for (const [i, text] of texts.entries()) {
      expect(text).toMatch(/^Switchboard held back a message: [a-z][^_]+\.$/);
      expect(text).not.toContain(REJECT_REASONS[i]?.replace(/_/g, ' '));
    }
    expect(new Set(texts).size).toBe(REJECT_REASONS.length);
  });

  it('words a revoke reason it knows, and shows any other as given', () => {
    const revoke = (reason: string) =>
      roomStory([
        env('v', 'mic_revoke', { kind: 'user', id: OP }, { agent_id: 'agent.researcher', reason }, 'control'),
      ])[0]?.text;
    expect(revoke('task_cancelled')).toBe(
      'The facilitator took the mic back from Researcher: the task was called off.',
    );
    expect(revoke('mic_grant_expired')).toBe('The facilitator took the mic back from Researcher: its time was up.');
    expect(revoke('off_topic')).toBe('The facilitator took the mic back from Researcher: off topic.');
  });
});

describe('story words', () => {
  it('names agents from their ids and clips long text on a word', () => {
    expect(agentName('agent.researcher')).toBe('Researcher');
    expect(agentName('agent.data-cleaner')).toBe('Data cleaner');
    expect(agentName('')).toBe('An agent');
    expect(clip('alpha beta gamma delta', 15)).toBe('alpha beta…');
    expect(clip('abcdefghijklmnop', 10)).toBe('abcdefghij…');
    expect(clip('  short\n text ')).toBe('short text');
  });
});

describe('negotiation story', () => {
  const A = 'did:key:z6MkBuyer';
  const B = 'did:key:z6MkSeller';
  const base = { negotiation_id: 'neg_1', category: 'pricing', signature: 's' };
  const history = [
    {
      type: 'open',
      received_at: '2026-05-05T08:00:00Z',
      document: { ...base, type: 'open', opened_by: A, parties: [A, B] },
    },
    {
      type: 'propose',
      received_at: '2026-05-05T08:01:00Z',
      document: {
        ...base,
        proposal_id: 'p1',
        from: A,
        to: B,
        round: 1,
        terms: { price_per_call_eur: '0.0035', months: 6, currency: 'EUR' },
      },
    },
    {
      type: 'propose',
      received_at: '2026-05-05T08:02:00Z',
      document: {
        ...base,
        proposal_id: 'p2',
        from: B,
        to: A,
        round: 2,
        terms: { price_per_call_eur: '0.0040', months: 6 },
      },
    },
    {
      type: 'accept',
      received_at: '2026-05-05T08:03:00Z',
      document: { ...base, type: 'accept', proposal_id: 'p2', by: A },
    },
    { type: 'cosign', received_at: '2026-05-05T08:04:00Z', by: B, signature: 's' },
  ];

  it('tells the rounds, the agreement and the co-signature by name', () => {
    const lines = negotiationStory({
      parties: [A, B],
      category: 'pricing',
      history,
      logIndex: 3,
      names: { [A]: 'Northwind' },
    });
    expect(lines.map((l) => l.text)).toEqual([
      `Northwind opened a pricing negotiation with ${shortId(B)}.`,
      'Northwind offered 0.0035 EUR per call for 6 months (round 1).',
      `${shortId(B)} countered with 0.0040 EUR per call for 6 months (round 2).`,
      'Agreed: 0.0040 EUR per call for 6 months.',
      `${shortId(B)} co-signed the agreement; it is entry 3 of the public log.`,
    ]);
    expect(lines[3]!.tone).toBe('milestone');
    expect(lines[1]!.at).toBe(Date.parse('2026-05-05T08:01:00Z'));
  });

  it('tells a withdrawal and an expiry as problems', () => {
    const lines = negotiationStory({
      parties: [A, B],
      category: 'data-access',
      history: [
        {
          type: 'withdraw',
          received_at: '2026-05-05T08:00:00Z',
          document: { ...base, type: 'withdraw', by: B, reason: 'Budget cut' },
        },
        { type: 'expire', proposal_id: 'p1', received_at: '2026-05-05T08:00:00Z' },
        'garbage',
      ],
    });
    expect(lines.map((l) => [l.text, l.tone])).toEqual([
      [`${shortId(B)} walked away: Budget cut`, 'problem'],
      ['The last offer ran out of time; the negotiation expired.', 'problem'],
    ]);
  });

  it('words terms: money with its unit, then the rest, and something for any shape', () => {
    expect(termsWords({ fee_eur: '1800.00', months: 12, dataset: 'x' })).toBe('1800.00 EUR for 12 months');
    expect(termsWords({ effective_from: '2026-05-07T14:00:00Z', room: 'B2' })).toMatch(
      /^from Thu 7 May( 2026)?, 14:00 UTC$/,
    );
    expect(termsWords({ uptime_percent: 99.95 })).toBe('99.95 % uptime');
    expect(termsWords({ price_per_call_eur: '0.0041', calls_per_month: 140_000, currency: 'EUR' })).toBe(
      '0.0041 EUR per call, 140,000 calls a month',
    );
    expect(termsWords({ colour: 'blue', nested: { a: 1 } })).toBe('colour blue');
    expect(termsWords({ nested: { a: 1 } })).toBe('1 term');
    expect(termsWords(null)).toBe('terms');
  });
});

describe('scheduling story', () => {
  const ADA = 'did:key:z6MkAda';
  const ATLAS = 'did:key:z6MkAtlas';
  const slot = { start: '2026-05-05T08:00:00Z', end: '2026-05-05T08:30:00Z' };
  const baseState = {
    threadId: 'urn:uuid:1',
    initiator: OP,
    revision: 1,
    object: { type: 'Event', title: 'Planning', duration: 'PT30M' },
    constraints: { participants: [ADA, ATLAS], requiredParticipants: [ADA, ATLAS] },
    responses: {},
  };
  const view = (state: object, extra: Partial<SchedulingThreadView> = {}): SchedulingThreadView => ({
    threadId: 'urn:uuid:1',
    state: state as SchedulingThreadView['state'],
    participants: [
      {
        did: ADA,
        required: true,
        phase: 'INTERESTED',
        revision: 1,
        response: { status: 'INTERESTED', slots: [slot, slot], respondingToRevision: 1 },
      },
      {
        did: ATLAS,
        required: true,
        phase: 'DECLINED',
        revision: 1,
        response: { status: 'DECLINED', slots: [], respondingToRevision: 1 },
      },
    ],
    suggestion: { candidates: [{ ...slot, optionalFree: [], missingRequired: [] }], nearestAlternatives: [] },
    log: [
      {
        seq: 2,
        envelopeId: 'e2',
        at: T + 2_000,
        from: ATLAS,
        to: OP,
        type: 'ProposalResponse',
        revision: 1,
        outcome: 'applied',
      },
      {
        seq: 3,
        envelopeId: 'e3',
        at: T + 3_000,
        from: ADA,
        to: OP,
        type: 'ProposalResponse',
        revision: 1,
        outcome: 'applied',
      },
    ],
    openedAt: T,
    updatedAt: T + 5_000,
    ...extra,
  });
  const names = { [ADA]: 'Ada', [ATLAS]: 'Room Atlas', [OP]: 'You' };

  it('tells the proposal, the answers in the order they came and the best slot', () => {
    const lines = schedulingStory(view({ ...baseState, status: 'PROPOSED' }), { names });
    expect(lines.map((l) => l.text)).toEqual([
      'You proposed “Planning” to Ada and Room Atlas.',
      'Room Atlas cannot make it.',
      'Ada can make it (2 free slots).',
      expect.stringMatching(/^Best slot so far: Tue 5 May( 2026)?, 08:00–08:30 UTC\.$/),
    ]);
  });

  it('tells a booking with the resource by name, in the chosen zone', () => {
    const lines = schedulingStory(view({ ...baseState, status: 'CONFIRMED', finalSlot: slot }), {
      names: { ...names, [OP]: 'Ada' },
      resources: new Set([ATLAS]),
      timeZone: 'Europe/Berlin',
    });
    expect(lines.at(-1)).toMatchObject({
      text: expect.stringMatching(/^Ada booked Room Atlas, Tue 5 May( 2026)?, 10:00–10:30 CEST\.$/),
      tone: 'milestone',
    });
    // With its date, never a weekday alone (decisions-web.md §36).
    const may = Date.UTC(2026, 4, 1);
    expect(slotWords(slot, 'UTC', may)).toBe('Tue 5 May, 08:00–08:30 UTC');
    expect(slotWords(slot, 'Europe/Berlin', may)).toBe('Tue 5 May, 10:00–10:30 CEST');
    expect(slotWords({ start: '2026-05-05T23:30:00Z', end: '2026-05-06T00:30:00Z' }, 'UTC', may)).toBe(
      'Tue 5 May, 23:30 – Wed 6 May, 00:30 UTC',
    );
  });

  it('tells a cancellation, an error and unknown participants without their DIDs', () => {
    const v = view(
      { ...baseState, status: 'CANCELLED', reason: 'Room closed', cancelledBy: OP },
      {
        participants: [
          {
            did: 'did:key:z6MkStranger',
            required: true,
            phase: 'INVITED',
            revision: 0,
            lastError: { code: 'OACOP_STALE_REVISION', message: 'The revision is stale.', at: T },
          },
        ],
      },
    );
    const text = schedulingStory(v).map((l) => l.text);
    expect(text).toEqual([
      'A participant proposed “Planning” to A participant.',
      'A participant could not answer: The revision is stale.',
      'A participant called it off: Room closed',
    ]);
  });
});
