import { describe, expect, it } from 'vitest';
import {
  CONFIDENTIALITY_CLASSES,
  mostRestrictive,
  regulatedObligations,
  REGULATED_OBLIGATIONS,
} from './confidentiality';
import { alice, bob } from './test-support/fixtures';

describe('confidentiality (§3.7)', () => {
  it('inherits the most restrictive class, in the order public < internal < confidential < restricted', () => {
    expect(CONFIDENTIALITY_CLASSES).toEqual(['public', 'internal', 'confidential', 'restricted']);
    expect(mostRestrictive('public')).toBe('public');
    expect(mostRestrictive('public', 'internal')).toBe('internal');
    expect(mostRestrictive('restricted', 'confidential')).toBe('restricted');
    expect(mostRestrictive('confidential', 'public', 'internal')).toBe('confidential');
  });

  it('flags a regulated party facing an unregulated counterparty', () => {
    expect(regulatedObligations([alice.did, bob.did], { [alice.did]: 'legal' })).toEqual([
      {
        party: alice.did,
        profession: 'legal',
        obligations: [...REGULATED_OBLIGATIONS.legal],
        counterparty_unregulated: true,
      },
    ]);
  });

  it('flags both when both are regulated (never less than §3.7 asks), and nothing when neither is', () => {
    const both = regulatedObligations([alice.did, bob.did], { [alice.did]: 'medical', [bob.did]: 'financial' });
    expect(both.map((o) => [o.party, o.profession, o.counterparty_unregulated])).toEqual([
      [alice.did, 'medical', false],
      [bob.did, 'financial', false],
    ]);
    expect(regulatedObligations([alice.did, bob.did], {})).toEqual([]);
  });
});
