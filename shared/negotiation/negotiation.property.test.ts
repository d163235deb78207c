// Random event sequences against the §3.2 state machine, replayable from a fixed seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signAgreement } from './agreement';
import { availableActions } from './available-actions';
import { cosignAgreement } from './cosign';
import { tick } from './expire';
import { toTimestamp } from './primitives';
import {
  hasExpired,
  isTerminal,
  latestProposal,
  proposals,
  type NegotiationEvent,
  type NegotiationState,
} from './state';
import {
  acceptanceDoc,
  alice,
  bob,
  carol,
  ctx,
  limits,
  MINUTE,
  opened,
  proposalDoc,
  rejectionDoc,
  T0,
  tamper,
  withdrawalDoc,
  type TestParty,
} from './test-support/fixtures';
import { replayHistory } from './replay';
import { transition } from './transition';

const KINDS = ['propose', 'accept', 'reject', 'withdraw', 'expire', 'cosign', 'tick'] as const;
const FAULTS = [
  'bad-signature',
  'wrong-round',
  'stale-previous',
  'reused-id',
  'stale-proposal',
  'skewed-clock',
] as const;
type Kind = (typeof KINDS)[number];
type Fault = (typeof FAULTS)[number] | 'none';

// Weighted so that runs go deep: mostly proposals and answers, walk-aways and big time jumps rare.
const WEIGHTS: Record<Kind, number> = { propose: 8, accept: 3, reject: 1, withdraw: 1, expire: 1, cosign: 3, tick: 1 };
const command = fc.record({
  actor: fc.constantFrom(alice, bob, bob, alice, carol),
  kind: fc.oneof(...KINDS.map((k) => ({ weight: WEIGHTS[k], arbitrary: fc.constant(k) }))),
  fault: fc.oneof(
    { weight: 3, arbitrary: fc.constant<Fault>('none') },
    { weight: 1, arbitrary: fc.constantFrom<Fault>(...FAULTS) },
  ),
  advanceMinutes: fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 0, max: 5 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 90 }) },
  ),
  validityMinutes: fc.integer({ min: 1, max: 90 }),
});
type Command = { actor: TestParty; kind: Kind; fault: Fault; advanceMinutes: number; validityMinutes: number };
const scenario = fc.record({
  maxRounds: fc.integer({ min: 1, max: 4 }),
  commands: fc.array(command, { minLength: 1, maxLength: 24 }),
});

/** The document for `cmd`, and whether its fault actually applies (a fault that cannot apply is no fault). */
function documentFor(state: NegotiationState, cmd: Command, now: number): { document: unknown; faulty: boolean } {
  const { actor, fault } = cmd;
  const earlier = proposals(state);
  const latest = earlier.at(-1);
  const superseded = earlier.at(-2);
  const signed = <T extends { signature: string }>(doc: T): { document: unknown; faulty: boolean } =>
    fault === 'bad-signature'
      ? { document: { ...doc, signature: tamper(doc.signature) }, faulty: true }
      : { document: doc, faulty: false };
  switch (cmd.kind) {
    case 'propose': {
      const overrides: Record<string, unknown> = { valid_until: toTimestamp(now + cmd.validityMinutes * MINUTE) };
      if (fault === 'wrong-round') overrides['round'] = earlier.length + 2;
      if (fault === 'stale-previous') overrides['previous_proposal_id'] = superseded?.proposal_id ?? 'prp_ghost';
      if (fault === 'reused-id' && latest) overrides['proposal_id'] = earlier[0]?.proposal_id;
      const faulty =
        ['wrong-round', 'stale-previous'].includes(fault) || (fault === 'reused-id' && latest !== undefined);
      const doc = proposalDoc(state, actor, overrides);
      return faulty ? { document: doc, faulty } : signed(doc);
    }
    case 'accept':
    case 'reject': {
      if (latest === undefined) return { document: {}, faulty: false };
      const at = fault === 'skewed-clock' ? now - 10 * MINUTE : now;
      const overrides = fault === 'stale-proposal' && superseded ? { proposal_id: superseded.proposal_id } : {};
      const faulty = fault === 'skewed-clock' || (fault === 'stale-proposal' && superseded !== undefined);
      const doc =
        cmd.kind === 'accept' ? acceptanceDoc(state, actor, overrides, at) : rejectionDoc(state, actor, overrides, at);
      return faulty ? { document: doc, faulty } : signed(doc);
    }
    case 'withdraw': {
      const doc = withdrawalDoc(state, actor, {}, fault === 'skewed-clock' ? now + 10 * MINUTE : now);
      return fault === 'skewed-clock' ? { document: doc, faulty: true } : signed(doc);
    }
    case 'cosign': {
      const signature = state.agreement ? signAgreement(state.agreement, actor.secretKey) : 'A'.repeat(86);
      return signed({ by: actor.did, signature });
    }
    case 'expire':
    case 'tick':
      return { document: null, faulty: false };
  }
}

function checkInvariants(state: NegotiationState): void {
  // §5: rounds are 1, 2, 3… with no gap or repeat.
  expect(proposals(state).map((p) => p.round)).toEqual(proposals(state).map((_, i) => i + 1));
  expect(proposals(state).length).toBeLessThanOrEqual(state.max_rounds);
  // §5 "Race Conditions": at most one acceptance, and nothing but co-signatures after a terminal step.
  const steps = state.history.filter((h) => h.type !== 'cosign');
  expect(state.history.filter((h) => h.type === 'accept').length).toBeLessThanOrEqual(1);
  const terminalAt = steps.findIndex((h) => ['accept', 'reject', 'withdraw', 'expire'].includes(h.type));
  if (terminalAt >= 0) expect(terminalAt).toBe(steps.length - 1);
  expect(isTerminal(state.status)).toBe(terminalAt >= 0);
  if (state.status === 'ACCEPTED') expect(state.agreement).not.toBeNull();
}

function run({ maxRounds, commands }: { maxRounds: number; commands: Command[] }): void {
  let now = T0;
  let state = opened({ max_rounds: maxRounds });
  for (const cmd of commands) {
    now += cmd.advanceMinutes * MINUTE;
    if (cmd.kind === 'tick') {
      const next = tick(state, now);
      const due =
        !isTerminal(state.status) && latestProposal(state) !== null && hasExpired(latestProposal(state)!, now);
      expect(next === state).toBe(!due);
      if (due) expect(next.status).toBe('EXPIRED');
      state = next;
      checkInvariants(state);
      continue;
    }
    const { document, faulty } = documentFor(state, cmd, now);
    const before = structuredClone(state);
    const allowed = availableActions(state, cmd.actor.did, now);
    const r =
      cmd.kind === 'cosign'
        ? cosignAgreement(state, document, now)
        : transition(
            state,
            (cmd.kind === 'expire' ? { type: 'expire' } : { type: cmd.kind, document }) as NegotiationEvent,
            ctx(now),
          );

    // A refused or accepted event never mutates the state it was given.
    expect(state).toEqual(before);
    if (faulty) expect(r.ok).toBe(false);
    if (cmd.kind === 'expire') {
      const latest = latestProposal(state);
      expect(r.ok).toBe(!isTerminal(state.status) && latest !== null && hasExpired(latest, now));
    } else if (!faulty) {
      // The console's "what can I do now" agrees with the state machine.
      expect(r.ok).toBe(allowed.includes(cmd.kind));
    }
    if (r.ok) {
      if (cmd.kind !== 'cosign') expect(isTerminal(state.status)).toBe(false);
      state = r.value;
    }
    checkInvariants(state);
  }
  // The signed history alone rebuilds the same state (what a browser checks after GET).
  expect(replayHistory(state.history, limits)).toEqual({ ok: true, value: state });
}

describe('state machine properties (fast-check, fixed seed)', () => {
  it('rounds strictly increase, nothing follows a terminal state, one acceptance at most, refusals change nothing, actions agree', () => {
    fc.assert(fc.property(scenario, run), { seed: 20260503, numRuns: 300 });
  }, 120_000);
});
