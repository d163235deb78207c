import { describe, expect, it } from 'vitest';
import { agentA, client, unsignedAs } from '@shared/agora/test-support/fixtures';
import { agoraStory } from './agora-story';

const names = { [client.did]: 'You', [agentA.did]: 'Demo Translator' };
const event = (envelope: unknown, receivedAt: number) => ({ envelope, receivedAt });

describe('the story of an Agora thread', () => {
  it('tells a request, its offer, the acceptance and the result in words, without ids', () => {
    const lines = agoraStory(
      [
        event(unsignedAs('REQUEST', { from: client, to: agentA, payload: { title: 'Greet <i>them</i>' } }), 1),
        event(unsignedAs('OFFER', { from: agentA, to: client }), 2),
        event(unsignedAs('ACCEPT', { from: client, to: agentA }), 3),
        event(unsignedAs('RESULT', { from: agentA, to: client }), 4),
      ],
      { names },
    );
    expect(lines.map((l) => [l.text, l.tone, l.at])).toEqual([
      ['You asked Demo Translator for “Greet <i>them</i>”.', 'step', 1],
      ['Demo Translator offered to do it for 0.005 USD, ready in 2 s.', 'step', 2],
      ['You accepted Demo Translator’s offer.', 'milestone', 3],
      ['Demo Translator delivered the result (success).', 'milestone', 4],
    ]);
    expect(lines.map((l) => l.text).join(' ')).not.toMatch(/did:key|msg_|thread_/);
  });

  it('names unknown parties by their role, tells errors and cancellations, and leaves out what is not an envelope', () => {
    const lines = agoraStory([
      event(unsignedAs('REQUEST', { from: client, payload: { title: undefined } }), 1),
      event({ type: 'OFFER', nonsense: true }, 2),
      event(unsignedAs('ERROR', { from: agentA, to: client }), 3),
      event(unsignedAs('CANCEL', { from: client }), 4),
    ]);
    expect(lines.map((l) => [l.text, l.tone])).toEqual([
      ['The client asked any agent for a translation.en_zh service.', 'step'],
      ['An agent reported a problem: Request budget too low for this intent', 'problem'],
      ['The client called the request off.', 'problem'],
    ]);
  });
});
