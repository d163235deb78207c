import { describe, expect, it } from 'vitest';
import { checkMessage } from './check-message';
import { assign, cancel, confirm, propose, response, update } from './test-support/fixtures';

describe('checkMessage', () => {
  it('finds nothing wrong with the spec examples', () => {
    for (const message of [propose, response, confirm, assign, update, cancel])
      expect(checkMessage(message)).toEqual([]);
  });

  it('reports every broken rule, each with a JSON Pointer', () => {
    const problems = checkMessage({
      ...propose,
      created: 'yesterday',
      object: { type: 'Event', duration: 'P1M', parentTaskId: propose.threadId },
      constraints: {
        timeWindow: { start: '2025-12-12T00:00:00Z', end: '2025-12-10T00:00:00Z' },
        requiredParticipants: ['did:key:z6MkBob'],
      },
    });
    expect(problems.map((p) => `${p.path} ${p.rule}`)).toEqual([
      '/created utc',
      '/object/duration duration',
      '/object/parentTaskId task-self',
      '/constraints/timeWindow slot-order',
      '/constraints/requiredParticipants/0 required-subset',
    ]);
  });
});
