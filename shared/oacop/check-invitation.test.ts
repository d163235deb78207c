import { describe, expect, it } from 'vitest';
import { checkInvitation, type BurnRecord, type InvitationCheck } from './check-invitation';
import { ALICE, BOB, CHARLIE } from './test-support/fixtures';

const ledger = new Map<string, BurnRecord>([
  ['oap:tx:burn_123', { amount: '5', burnedBy: ALICE }],
  ['oap:tx:small', { amount: '0.5', burnedBy: ALICE }],
  ['oap:tx:bob', { amount: '5', burnedBy: BOB }],
  ['oap:tx:used', { amount: '5', burnedBy: ALICE, usedFor: 'urn:uuid:other' }],
  ['oap:tx:mine', { amount: 5, burnedBy: ALICE, usedFor: 'urn:uuid:meet-1' }],
  ['oap:tx:weird', { amount: 'lots', burnedBy: ALICE }],
]);

const base: InvitationCheck = {
  sender: ALICE,
  threadId: 'urn:uuid:meet-1',
  webOfTrust: new Set([CHARLIE]),
  minimumBurn: '1',
  proofOfBurn: { txId: 'oap:tx:burn_123', amount: '5' },
  ledgerLookup: (txId) => ledger.get(txId),
};

describe('checkInvitation (OACoP §6.2)', () => {
  it('lets the web of trust in without a burn', () => {
    const { proofOfBurn: _p, ...unpaid } = base;
    expect(checkInvitation({ ...unpaid, sender: CHARLIE })).toEqual({ ok: true, value: { trusted: true } });
  });

  it('accepts a sufficient burn by the sender, also on re-delivery to the same thread', () => {
    expect(checkInvitation(base)).toEqual({ ok: true, value: { trusted: false, txId: 'oap:tx:burn_123' } });
    expect(checkInvitation({ ...base, proofOfBurn: { txId: 'oap:tx:mine' } }).ok).toBe(true);
    expect(
      checkInvitation({ ...base, minimumBurn: 5, proofOfBurn: { txId: 'oap:tx:burn_123', amount: '5.00' } }).ok,
    ).toBe(true);
    expect(checkInvitation({ ...base, minimumBurn: 0.5, proofOfBurn: { txId: 'oap:tx:small' } }).ok).toBe(true);
  });

  it.each([
    ['missing', { proofOfBurn: undefined }],
    ['unknown_tx', { proofOfBurn: { txId: 'oap:tx:nope' } }],
    ['wrong_burner', { proofOfBurn: { txId: 'oap:tx:bob' } }],
    ['amount_mismatch', { proofOfBurn: { txId: 'oap:tx:burn_123', amount: '50' } }],
    ['insufficient', { proofOfBurn: { txId: 'oap:tx:small' } }],
    ['insufficient', { minimumBurn: '5.01' }],
    ['insufficient', { proofOfBurn: { txId: 'oap:tx:weird' } }],
    ['insufficient', { minimumBurn: -1 }],
    ['already_used', { proofOfBurn: { txId: 'oap:tx:used' } }],
  ] as const)('is OACOP_PAYMENT_REQUIRED (%s)', (reason, change) => {
    expect(checkInvitation({ ...base, ...change })).toMatchObject({
      ok: false,
      error: { code: 'OACOP_PAYMENT_REQUIRED', details: { reason } },
    });
  });
});
