import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import type { ProposeCollaboration } from './messages';
import { openThread, transitionThread, type ThreadState } from './scheduling-thread';
import { ALICE, BOB, cancel, CHARLIE, confirm, DAVE, propose, response } from './test-support/fixtures';

const opened = (): ThreadState => unwrap(openThread({ from: ALICE, message: propose }));
const step = (state: ThreadState, from: string, message: Parameters<typeof transitionThread>[1]['message']) =>
  transitionThread(state, { from, message });
const codeOf = (result: { ok: boolean; error?: { code: string } }) => (result.ok ? 'ok' : result.error?.code);

describe('openThread', () => {
  it("starts PROPOSED at the proposal's revision with the signer as initiator", () => {
    expect(opened()).toEqual({
      status: 'PROPOSED',
      threadId: propose.threadId,
      initiator: ALICE,
      revision: 1,
      object: propose.object,
      constraints: propose.constraints,
      responses: {},
    });
  });

  it('takes a missing constraints object as no constraints', () => {
    const { constraints: _c, ...bare } = propose;
    expect(unwrap(openThread({ from: ALICE, message: bare })).constraints).toEqual({});
  });

  it('refuses a sender field that is not the signer', () => {
    expect(codeOf(openThread({ from: BOB, message: propose }))).toBe('OACOP_NOT_AUTHORIZED');
  });

  it('refuses a duration that cannot fit the window (§5 OACOP_UNSUPPORTED_CONSTRAINT)', () => {
    const long: ProposeCollaboration = { ...propose, object: { type: 'Event', duration: 'P3D' } };
    expect(codeOf(openThread({ from: ALICE, message: long }))).toBe('OACOP_UNSUPPORTED_CONSTRAINT');
  });
});

describe('transitionThread: the §3 flow', () => {
  it('collects responses, confirms at n + 1 and cancels at n + 2', () => {
    let state = opened();
    state = unwrap(step(state, BOB, response));
    state = unwrap(step(state, CHARLIE, { ...response, status: 'TENTATIVE', availableSlots: [] }));
    expect(state.responses).toEqual({
      [BOB]: { status: 'INTERESTED', slots: response.availableSlots },
      [CHARLIE]: { status: 'TENTATIVE', slots: [] },
    });
    state = unwrap(step(state, ALICE, confirm));
    expect(state).toMatchObject({ status: 'CONFIRMED', revision: 2, finalSlot: confirm.finalSlot });
    state = unwrap(step(state, BOB, cancel));
    expect(state).toMatchObject({
      status: 'CANCELLED',
      revision: 3,
      reason: 'SICKNESS',
      cancelledBy: BOB,
      finalSlot: confirm.finalSlot,
    });
  });

  it('lets a participant change its answer to the same revision', () => {
    let state = unwrap(step(opened(), BOB, response));
    state = unwrap(step(state, BOB, { ...response, status: 'DECLINED', availableSlots: [] }));
    expect(state.responses[BOB]).toEqual({ status: 'DECLINED', slots: [] });
  });

  it('keeps a DECLINED response without slots as no slots', () => {
    const { availableSlots: _s, ...declined } = { ...response, status: 'DECLINED' as const };
    expect(unwrap(step(opened(), BOB, declined)).responses[BOB]).toEqual({ status: 'DECLINED', slots: [] });
  });

  it('refuses a message for another thread', () => {
    expect(codeOf(step(opened(), BOB, { ...response, threadId: 'urn:uuid:other' }))).toBe('OACOP_INVALID_MESSAGE');
  });

  it('refuses a message whose sender field is not the signer', () => {
    expect(codeOf(step(opened(), BOB, { ...response, sender: CHARLIE }))).toBe('OACOP_NOT_AUTHORIZED');
  });
});

describe('§3.4 revisions and races', () => {
  it('discards a response to revision 1 after the revision-2 Confirm (§3.4.3)', () => {
    const confirmed = unwrap(step(opened(), ALICE, confirm));
    expect(codeOf(step(confirmed, BOB, response))).toBe('OACOP_STALE_REVISION');
  });

  it('refuses a response to a revision it has not seen', () => {
    expect(codeOf(step(opened(), BOB, { ...response, respondingToRevision: 2 }))).toBe('OACOP_STALE_REVISION');
  });

  it('treats a lower or equal revision as stale (§3.4.2 "Ignore")', () => {
    const confirmed = unwrap(step(opened(), ALICE, confirm));
    expect(codeOf(step(opened(), ALICE, { ...confirm, revision: 1 }))).toBe('OACOP_STALE_REVISION');
    expect(codeOf(step(confirmed, ALICE, confirm))).toBe('OACOP_STALE_REVISION');
    expect(codeOf(step(confirmed, BOB, { ...cancel, revision: 2 }))).toBe('OACOP_STALE_REVISION');
  });

  it('accepts any higher revision, as §3.4.2 says, not only n + 1', () => {
    expect(unwrap(step(opened(), ALICE, { ...confirm, revision: 5 })).revision).toBe(5);
  });

  it('lets the initiator re-propose, which clears the answers to the old revision', () => {
    const answered = unwrap(step(opened(), BOB, response));
    const again = unwrap(
      step(answered, ALICE, { ...propose, revision: 2, object: { type: 'Event', duration: 'PT60M' } }),
    );
    expect(again).toMatchObject({ status: 'PROPOSED', revision: 2, responses: {}, object: { duration: 'PT60M' } });
    expect(codeOf(step(again, BOB, response))).toBe('OACOP_STALE_REVISION');
    expect(unwrap(step(again, BOB, { ...response, respondingToRevision: 2 })).responses[BOB]?.status).toBe(
      'INTERESTED',
    );
  });

  it('re-opens a confirmed thread on a new proposal (rescheduling)', () => {
    const confirmed = unwrap(step(opened(), ALICE, confirm));
    const again = unwrap(step(confirmed, ALICE, { ...propose, revision: 3 }));
    expect(again.status).toBe('PROPOSED');
    expect('finalSlot' in again).toBe(false);
  });

  it('refuses a stale or unfitting re-proposal', () => {
    expect(codeOf(step(opened(), ALICE, propose))).toBe('OACOP_STALE_REVISION');
    expect(codeOf(step(opened(), ALICE, { ...propose, revision: 2, object: { type: 'Event', duration: 'P3D' } }))).toBe(
      'OACOP_UNSUPPORTED_CONSTRAINT',
    );
  });

  it('re-confirms a confirmed thread at a higher revision (the initiator moves the slot)', () => {
    const confirmed = unwrap(step(opened(), ALICE, confirm));
    const moved = { start: '2025-12-11T10:00:00Z', end: '2025-12-11T10:30:00Z' };
    expect(unwrap(step(confirmed, ALICE, { ...confirm, revision: 3, finalSlot: moved }))).toMatchObject({
      revision: 3,
      finalSlot: moved,
    });
  });
});

describe('§3.4.1 authority', () => {
  it.each([
    ['a participant confirming', BOB, confirm],
    ['a participant re-proposing', BOB, { ...propose, revision: 2 }],
    ['a stranger answering', DAVE, response],
    ['the initiator answering its own proposal', ALICE, response],
    ['a stranger cancelling', DAVE, { ...cancel, revision: 2 }],
  ])('refuses %s', (_what, from, message) => {
    expect(codeOf(step(opened(), from, message))).toBe('OACOP_NOT_AUTHORIZED');
  });

  it('lets the initiator and any listed participant cancel (§3.5)', () => {
    expect(unwrap(step(opened(), ALICE, { ...cancel, revision: 2 })).status).toBe('CANCELLED');
    expect(unwrap(step(opened(), CHARLIE, { ...cancel, revision: 2 })).status).toBe('CANCELLED');
  });

  it('lets anyone reached answer an open proposal, but only the initiator cancel it', () => {
    const { constraints: _c, ...open } = propose;
    const state = unwrap(openThread({ from: ALICE, message: open }));
    expect(unwrap(step(state, DAVE, response)).responses[DAVE]).toBeDefined();
    expect(codeOf(step(state, DAVE, { ...cancel, revision: 2 }))).toBe('OACOP_NOT_AUTHORIZED');
  });
});

describe('thread states', () => {
  const cancelled = () => unwrap(step(opened(), ALICE, { ...cancel, revision: 2 }));

  it('ends at CANCELLED', () => {
    expect(codeOf(step(cancelled(), ALICE, { ...confirm, revision: 3 }))).toBe('OACOP_INVALID_TRANSITION');
    expect(codeOf(step(cancelled(), ALICE, { ...propose, revision: 3 }))).toBe('OACOP_INVALID_TRANSITION');
    expect(codeOf(step(cancelled(), BOB, { ...cancel, revision: 3 }))).toBe('OACOP_INVALID_TRANSITION');
  });

  it('cancels an unconfirmed thread without a final slot', () => {
    expect('finalSlot' in cancelled()).toBe(false);
  });

  it("takes no response to the Confirm's own revision", () => {
    const confirmed = unwrap(step(opened(), ALICE, confirm));
    expect(codeOf(step(confirmed, BOB, { ...response, respondingToRevision: 2 }))).toBe('OACOP_INVALID_TRANSITION');
  });
});

describe('constraints on slots', () => {
  it('refuses offered slots outside the time window (§3.2 privacy)', () => {
    const outside = {
      ...response,
      availableSlots: [
        ...(response.availableSlots ?? []),
        { start: '2025-12-13T09:00:00Z', end: '2025-12-13T10:00:00Z' },
      ],
    };
    expect(step(opened(), BOB, outside)).toMatchObject({
      ok: false,
      error: { code: 'OACOP_INVALID_MESSAGE', details: { index: 1 } },
    });
    expect(codeOf(step(opened(), BOB, { ...response, availableSlots: [{ start: 'x', end: 'y' }] }))).toBe(
      'OACOP_INVALID_MESSAGE',
    );
  });

  it.each([
    ['outside the window', { start: '2025-12-13T10:00:00Z', end: '2025-12-13T10:30:00Z' }],
    ['longer than the duration', { start: '2025-12-10T10:00:00Z', end: '2025-12-10T11:00:00Z' }],
    ['not a slot', { start: '2025-12-10T11:00:00Z', end: '2025-12-10T10:00:00Z' }],
  ])('refuses a final slot %s', (_what, finalSlot) => {
    expect(codeOf(step(opened(), ALICE, { ...confirm, finalSlot }))).toBe('OACOP_INVALID_MESSAGE');
  });

  it('accepts any final slot when the proposal set no window or duration', () => {
    const state = unwrap(
      openThread({ from: ALICE, message: { ...propose, object: { type: 'Event' }, constraints: {} } }),
    );
    const finalSlot = { start: '2026-01-01T00:00:00Z', end: '2026-01-01T05:00:00Z' };
    expect(unwrap(step(state, ALICE, { ...confirm, finalSlot })).status).toBe('CONFIRMED');
    expect(unwrap(step(state, BOB, { ...response, availableSlots: [finalSlot] })).responses[BOB]).toBeDefined();
  });
});
