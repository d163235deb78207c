// The demo agents' plan never exceeds a grant (AOR §5.3, §7): exhaustively over budgets,
// allowed-type sets and wishes.
import { describe, expect, it } from 'vitest';
import { MESSAGE_TYPES, type MessageType } from '@shared/aor/payloads';
import { planSteps, type Wishes } from './plan';

const ALL: Wishes = { ask: true, secondFinding: true, secondProgress: true, risk: true, artifact: true };
const NONE: Wishes = { ask: false, secondFinding: false, secondProgress: false, risk: false, artifact: false };

function* subsets<T>(items: readonly T[]): Generator<T[]> {
  for (let mask = 0; mask < 1 << items.length; mask++) yield items.filter((_, i) => mask & (1 << i));
}

describe('planSteps (decision "within the grant")', () => {
  it('posts everything wished for, in order, when the grant allows it', () => {
    expect(planSteps({ maxMessages: 10, allowedMessageTypes: MESSAGE_TYPES }, ALL).map((s) => s.type)).toEqual([
      'ack',
      'clarifying_question',
      'progress',
      'finding',
      'risk',
      'progress',
      'finding',
      'artifact_link',
      'result',
    ]);
  });

  it('keeps the most important steps on a tight budget, the result last', () => {
    expect(planSteps({ maxMessages: 3, allowedMessageTypes: MESSAGE_TYPES }, ALL).map((s) => s.type)).toEqual([
      'ack',
      'finding',
      'result',
    ]);
    expect(planSteps({ maxMessages: 1, allowedMessageTypes: MESSAGE_TYPES }, NONE).map((s) => s.type)).toEqual([
      'result',
    ]);
  });

  it('never plans more than max_messages, nor a type the grant does not allow', () => {
    for (const allowed of subsets<MessageType>(MESSAGE_TYPES)) {
      for (let max = 1; max <= 10; max++) {
        for (const wishes of [ALL, NONE, { ...NONE, ask: true, risk: true }]) {
          const plan = planSteps({ maxMessages: max, allowedMessageTypes: allowed }, wishes);
          expect(plan.length).toBeLessThanOrEqual(max);
          for (const step of plan) expect(allowed).toContain(step.type);
          if (allowed.includes('result')) expect(plan.at(-1)?.type).toBe('result');
        }
      }
    }
  });
});
