import { describe, expect, it } from 'vitest';
import { activityInWords, actorInWords } from './activity-words';

const e = (
  action: string,
  details: Record<string, unknown>,
  target: string | null = null,
  targetName: string | null = null,
) => ({
  action,
  details,
  target,
  targetName,
});
const other = () => 'room words';

describe('the activity log in words', () => {
  it('words agent actions, a resume with the suspension it lifted', () => {
    expect(activityInWords(e('agent.create', { agentId: 'bot' }), other)).toBe('Created a credential for bot');
    expect(activityInWords(e('agent.resume', { agentId: 'bot', lifted: { reason: 'flooding' } }), other)).toBe(
      'Resumed bot, suspended for “flooding”',
    );
    expect(activityInWords(e('agent.resume', { agentId: 'bot' }), other)).toBe('Resumed bot');
  });

  it('words imports of A2A agents by the name on their card', () => {
    const url = 'https://travel.example/.well-known/agent-card.json';
    expect(activityInWords(e('agent.import', { agentId: 'a2a_1', name: 'Travel', url, refreshed: false }), other)).toBe(
      `Imported the A2A agent “Travel” from its Agent Card at ${url}`,
    );
    expect(activityInWords(e('agent.import', { agentId: 'a2a_1', name: 'Travel', url, refreshed: true }), other)).toBe(
      'Fetched the Agent Card of the imported A2A agent “Travel” again',
    );
    expect(activityInWords(e('agent.import_remove', { agentId: 'a2a_1', name: 'Travel', url }), other)).toBe(
      'Removed the imported A2A agent “Travel” from the directory',
    );
  });

  it('words operator actions by name, a did shortened when there is none', () => {
    expect(
      activityInWords(e('operator.invite', { role: 'facilitator', expiresAt: Date.UTC(2026, 10, 29, 9, 0) }), other),
    ).toBe('Invited a facilitator with a one-time link, valid until Sun 29 Nov, 09:00 UTC');
    expect(activityInWords(e('operator.enroll', { role: 'facilitator', name: 'Ben' }), other)).toBe(
      'Enrolled as a facilitator under the name “Ben”',
    );
    expect(
      activityInWords(
        e(
          'operator.role',
          { from: 'observer', to: 'facilitator' },
          'did:key:z6MkAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1',
          'Ben',
        ),
        other,
      ),
    ).toBe('Made Ben a facilitator (was observer)');
    expect(
      activityInWords(
        e('operator.remove', { role: 'observer' }, 'did:key:z6MkAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1'),
        other,
      ),
    ).toBe('Removed Operator …AAAAA1 (observer) from the console');
    expect(actorInWords({ actorDid: 'cli', actorName: null })).toBe('The operator CLI');
    expect(actorInWords({ actorDid: 'did:key:z6MkAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1', actorName: null })).toBe(
      'Operator …AAAAA1',
    );
  });

  it('words a settled queue, and hands every other action to the room words', () => {
    expect(activityInWords(e('review.settle', { decision: 'release', decided: 3 }), other)).toBe(
      'Released 3 waiting candidates undecided to their agents',
    );
    expect(activityInWords(e('review.settle', { decision: 'approve', decided: 1, refused: 2 }), other)).toBe(
      'Approved 1 waiting candidate at once (2 refused by their grant)',
    );
    expect(activityInWords(e('room.mic_grant', {}), other)).toBe('room words');
  });
});
