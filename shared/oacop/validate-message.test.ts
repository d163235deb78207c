import { describe, expect, it } from 'vitest';
import { validateMessage } from './validate-message';
import { ALICE, assign, BOB, cancel, CHARLIE, confirm, propose, response, update } from './test-support/fixtures';

const problems = (raw: unknown) => {
  const result = validateMessage(raw);
  if (result.ok) throw new Error('expected a refusal');
  return {
    code: result.error.code,
    message: result.error.message,
    ...(result.error.details as { layer: string; problems: { path: string; rule: string }[] }),
  };
};

describe('validateMessage', () => {
  it.each([propose, response, confirm, assign, update, cancel].map((m) => [m.type, m] as const))(
    'accepts the spec example of %s',
    (_type, message) => {
      expect(validateMessage(message)).toEqual({ ok: true, value: message });
    },
  );

  it('accepts the bare §3.1 example (no constraints, no burn amount)', () => {
    const bare = {
      type: 'ProposeCollaboration',
      threadId: 'urn:uuid:meet-1',
      revision: 1,
      object: { type: 'Event', duration: 'PT30M' },
    };
    expect(validateMessage(bare).ok).toBe(true);
  });

  it.each([[null], [[]], ['ProposeCollaboration'], [42]])('refuses a non-object %j', (raw) => {
    expect(problems(raw).code).toBe('OACOP_INVALID_MESSAGE');
  });

  it('refuses an unknown type, listing the six', () => {
    const result = validateMessage({ type: 'OACoPMessage' });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_MESSAGE', details: { allowed: expect.arrayContaining(['AssignTask']) } },
    });
  });

  describe('§7 schemas (layer "schema", Ajv paths)', () => {
    it.each([
      ['ProposeCollaboration without revision', { ...propose, revision: undefined }, '', 'required'],
      ['revision 0 (§7.1 minimum 1)', { ...propose, revision: 0 }, '/revision', 'minimum'],
      ['a threadId that is not a URI', { ...propose, threadId: 'meet 1' }, '/threadId', 'format'],
      ['an object type outside Event/Task', { ...propose, object: { type: 'Meeting' } }, '/object/type', 'enum'],
      [
        'a duration not starting with P',
        { ...propose, object: { type: 'Event', duration: '30M' } },
        '/object/duration',
        'pattern',
      ],
      ['a proofOfBurn without txId', { ...propose, proofOfBurn: { amount: '5' } }, '/proofOfBurn', 'required'],
      ['an unknown response status', { ...response, status: 'MAYBE' }, '/status', 'enum'],
      [
        'a slot that is not a date-time',
        { ...response, availableSlots: [{ start: 'tomorrow', end: '2025-12-10T12:00:00Z' }] },
        '/availableSlots/0/start',
        'format',
      ],
      ['a Confirm without finalSlot', { ...confirm, finalSlot: undefined }, '', 'required'],
      ['AssignTask of an Event', { ...assign, object: { type: 'Event', title: 'x' } }, '/object/type', 'const'],
      ['AssignTask without deadline', { ...assign, deadline: undefined }, '', 'required'],
      ['progress 101', { ...update, progress: 101 }, '/progress', 'maximum'],
      ['progress 2.5', { ...update, progress: 2.5 }, '/progress', 'type'],
      ['a Cancel without reason', { ...cancel, reason: undefined }, '', 'required'],
      [
        'a ProposalResponse without threadId (§7.2 requires one it never defines)',
        { ...response, threadId: undefined },
        '',
        'required',
      ],
    ])('refuses %s', (_what, raw, path, rule) => {
      const found = problems(JSON.parse(JSON.stringify(raw)));
      expect(found.code).toBe('OACOP_INVALID_MESSAGE');
      expect(found.layer).toBe('schema');
      expect(found.problems).toContainEqual(expect.objectContaining({ path, rule }));
    });

    it('reports every schema problem at once', () => {
      const found = problems({ ...update, status: 'DONE', progress: -1 });
      expect(found.problems.map((p) => p.path).sort()).toEqual(['/progress', '/status']);
      expect(found.message).toMatch(/^Invalid TaskUpdate at \//);
    });
  });

  describe('prose schemas (layer "prose")', () => {
    it.each([
      ['a ProposalResponse whose threadId is a number', { ...response, threadId: 7 }, '/threadId', 'type'],
      [
        'respondingToRevision 0 (§2.1 starts at 1)',
        { ...response, respondingToRevision: 0 },
        '/respondingToRevision',
        'minimum',
      ],
      ['a Confirm at revision 1 (§3.3 increments from ≥ 1)', { ...confirm, revision: 1 }, '/revision', 'minimum'],
      ['a Cancel at revision 1', { ...cancel, revision: 1 }, '/revision', 'minimum'],
      ['a TaskUpdate at revision 0', { ...update, revision: 0 }, '/revision', 'minimum'],
      ['a sender that is not a DID', { ...propose, sender: 'alice' }, '/sender', 'pattern'],
      ['a created that is not a date-time', { ...propose, created: 'now' }, '/created', 'format'],
      [
        'a participant that is not a DID',
        { ...propose, constraints: { participants: ['bob'] } },
        '/constraints/participants/0',
        'pattern',
      ],
      [
        'a duplicated participant',
        { ...propose, constraints: { participants: [BOB, BOB] } },
        '/constraints/participants',
        'uniqueItems',
      ],
      [
        'a window without end',
        { ...propose, constraints: { timeWindow: { start: '2025-12-10T08:00:00Z' } } },
        '/constraints/timeWindow',
        'required',
      ],
      [
        'a dependency that is not a URI',
        { ...assign, object: { ...assign.object, dependencies: ['task A'] } },
        '/object/dependencies/0',
        'format',
      ],
      [
        'a repeated dependency',
        { ...assign, object: { ...assign.object, dependencies: ['urn:a', 'urn:a'] } },
        '/object/dependencies',
        'uniqueItems',
      ],
      [
        'a numeric burn amount',
        { ...propose, proofOfBurn: { txId: 'oap:tx:1', amount: 5 } },
        '/proofOfBurn/amount',
        'type',
      ],
      [
        'a negative burn amount',
        { ...propose, proofOfBurn: { txId: 'oap:tx:1', amount: '-5' } },
        '/proofOfBurn/amount',
        'pattern',
      ],
      ['a title that is not a string', { ...propose, object: { type: 'Event', title: 3 } }, '/object/title', 'type'],
    ])('refuses %s', (_what, raw, path, rule) => {
      const found = problems(JSON.parse(JSON.stringify(raw)));
      expect(found).toMatchObject({ code: 'OACOP_INVALID_MESSAGE', layer: 'prose' });
      expect(found.problems).toContainEqual(expect.objectContaining({ path, rule }));
    });
  });

  describe('rules across fields (layer "rules")', () => {
    const window = (start: string, end: string) => ({
      ...propose,
      constraints: { ...propose.constraints, timeWindow: { start, end } },
    });
    it.each([
      [
        'a window that ends before it starts (§2.3)',
        window('2025-12-12T18:00:00Z', '2025-12-10T08:00:00Z'),
        '/constraints/timeWindow',
        'slot-order',
      ],
      [
        'an empty window',
        window('2025-12-10T08:00:00Z', '2025-12-10T08:00:00Z'),
        '/constraints/timeWindow',
        'slot-order',
      ],
      [
        'a window in another offset (§2.4 UTC)',
        window('2025-12-10T09:00:00+01:00', '2025-12-12T18:00:00Z'),
        '/constraints/timeWindow/start',
        'utc',
      ],
      ['a lowercase z', window('2025-12-10T08:00:00z', '2025-12-12T18:00:00Z'), '/constraints/timeWindow/start', 'utc'],
      ['a leap second', window('2016-12-31T23:59:60Z', '2025-12-12T18:00:00Z'), '/constraints/timeWindow/start', 'utc'],
      ['a created time in local offset', { ...propose, created: '2025-12-03T10:00:00+01:00' }, '/created', 'utc'],
      [
        'a required participant who is not a participant',
        { ...propose, constraints: { participants: [BOB], requiredParticipants: [CHARLIE] } },
        '/constraints/requiredParticipants/0',
        'required-subset',
      ],
      [
        'required participants without a participant list',
        { ...propose, constraints: { requiredParticipants: [BOB] } },
        '/constraints/requiredParticipants/0',
        'required-subset',
      ],
      [
        'a duration in months',
        { ...propose, object: { type: 'Event', duration: 'P1M' } },
        '/object/duration',
        'duration',
      ],
      ['a zero duration', { ...propose, object: { type: 'Event', duration: 'PT0M' } }, '/object/duration', 'duration'],
      [
        'a fractional duration',
        { ...propose, object: { type: 'Event', duration: 'PT0.5H' } },
        '/object/duration',
        'duration',
      ],
      [
        'a slot ending before it starts',
        { ...response, availableSlots: [{ start: '2025-12-10T12:00:00Z', end: '2025-12-10T09:00:00Z' }] },
        '/availableSlots/0',
        'slot-order',
      ],
      [
        'a DECLINED response with slots (§3.2)',
        { ...response, status: 'DECLINED' },
        '/availableSlots',
        'declined-with-slots',
      ],
      [
        'a final slot ending before it starts',
        { ...confirm, finalSlot: { start: confirm.finalSlot.end, end: confirm.finalSlot.start } },
        '/finalSlot',
        'slot-order',
      ],
      ['a deadline with an offset', { ...assign, deadline: '2025-12-20T12:00:00-05:00' }, '/deadline', 'utc'],
      [
        'a task that is its own parent',
        { ...assign, object: { ...assign.object, parentTaskId: assign.threadId } },
        '/object/parentTaskId',
        'task-self',
      ],
      [
        'a task that depends on itself',
        { ...assign, object: { ...assign.object, dependencies: [assign.threadId] } },
        '/object/dependencies/0',
        'task-self',
      ],
      ['a blank cancellation reason', { ...cancel, reason: '  ' }, '/reason', 'reason-empty'],
    ])('refuses %s', (_what, raw, path, rule) => {
      const found = problems(raw);
      expect(found).toMatchObject({ code: 'OACOP_INVALID_MESSAGE', layer: 'rules' });
      expect(found.problems).toContainEqual(expect.objectContaining({ path, rule }));
    });

    it('accepts a DECLINED response with no or empty slots', () => {
      expect(validateMessage({ ...response, status: 'DECLINED', availableSlots: [] }).ok).toBe(true);
      expect(
        validateMessage({
          type: 'ProposalResponse',
          threadId: 'urn:uuid:m',
          respondingToRevision: 1,
          status: 'DECLINED',
        }).ok,
      ).toBe(true);
    });

    it('accepts fractional seconds in UTC', () => {
      expect(
        validateMessage({ ...confirm, finalSlot: { start: '2025-12-10T10:00:00.250Z', end: '2025-12-10T10:30:00Z' } })
          .ok,
      ).toBe(true);
    });

    it('refuses a malformed icalComponent with OACOP_INVALID_ICAL (§5)', () => {
      const found = problems({
        ...propose,
        object: { ...propose.object, icalComponent: 'BEGIN:VEVENT\nRRULE:FREQ=SOMETIMES\nEND:VEVENT' },
      });
      expect(found).toMatchObject({ code: 'OACOP_INVALID_ICAL', layer: 'rules' });
      expect(found.problems).toContainEqual(
        expect.objectContaining({ path: '/object/icalComponent', rule: 'ical-component' }),
      );
    });

    it('accepts a recurring event', () => {
      const weekly = {
        ...propose,
        object: { ...propose.object, icalComponent: 'BEGIN:VEVENT\nRRULE:FREQ=WEEKLY;COUNT=5\nEND:VEVENT' },
      };
      expect(validateMessage(weekly).ok).toBe(true);
    });

    it('accepts a sender as a DID of any method', () => {
      expect(validateMessage({ ...propose, sender: 'did:web:example.com:alice' }).ok).toBe(true);
      expect(validateMessage({ ...propose, sender: ALICE }).ok).toBe(true);
    });
  });
});
