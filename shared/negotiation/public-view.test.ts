import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { commitmentHash, fieldDigest, negotiationCommitment } from './field-commitments';
import { appendEntry, publishedEntry, verifyChain } from './transparency-log';
import { defaultRedactions, publicView, redactView, verifyView, type PublicView } from './public-view';
import { alice, bob, carol, signedAgreement } from './test-support/fixtures';
import { signAgreement } from './agreement';

const codeOf = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error?.code);

describe('public views of an agreement (§6)', () => {
  it('a public agreement is shown in full by default; its view reproduces agreement_hash', () => {
    const a = signedAgreement(1);
    expect(defaultRedactions(a)).toEqual([]);
    const view = unwrap(publicView(a));
    expect(view.disclosures['/terms/fee_eur']).toEqual({ value: '120.00', salt: expect.any(String) });
    expect(unwrap(verifyView(view, a.agreement_hash))).toEqual({
      agreement_id: a.agreement_id,
      parties: [alice.did, bob.did],
      redacted: [],
    });
  });

  it('above public, the terms are redacted by default (§3.7) and the view still verifies', () => {
    const a = signedAgreement(2, { confidentiality: 'confidential' });
    expect(defaultRedactions(a)).toEqual(['/negotiation_id', '/terms/attendee_note', '/terms/fee_eur', '/terms/slot']);
    const view = unwrap(publicView(a));
    expect(view.disclosures['/terms/slot']).toEqual({ digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(unwrap(verifyView(view, a.agreement_hash)).redacted).toEqual([
      '/negotiation_id',
      '/terms/attendee_note',
      '/terms/fee_eur',
      '/terms/slot',
    ]);
  });

  it('redacting only some fields, and redacting an already public view, both keep the hash', () => {
    const a = signedAgreement(3);
    const partial = unwrap(publicView(a, ['/terms/attendee_note']));
    expect(codeOf(verifyView(partial, a.agreement_hash))).toBe('ok');
    const later = unwrap(redactView(unwrap(publicView(a)), ['/terms/attendee_note']));
    expect(later).toEqual(partial);
    expect(unwrap(redactView(later, ['/terms/attendee_note']))).toEqual(partial);
  });

  it('refuses to redact material or unknown fields', () => {
    const a = signedAgreement(4);
    expect(codeOf(publicView(a, ['/parties']))).toBe(Code.MATERIAL_FIELD_REDACTED);
    expect(codeOf(publicView(a, ['/terms/nope']))).toBe(Code.UNKNOWN_FIELD);
    expect(codeOf(redactView(unwrap(publicView(a)), ['/metadata']))).toBe(Code.MATERIAL_FIELD_REDACTED);
    expect(codeOf(redactView(unwrap(publicView(a)), ['/terms']))).toBe(Code.UNKNOWN_FIELD);
  });

  it('detects a changed value, salt or digest, and a hidden material field', () => {
    const a = signedAgreement(5, { confidentiality: 'internal' });
    const view = unwrap(publicView(a, ['/terms/slot']));
    const withField = (pointer: string, d: unknown): PublicView => ({
      ...view,
      disclosures: { ...view.disclosures, [pointer]: d as never },
    });
    expect(
      codeOf(
        verifyView(
          withField('/terms/fee_eur', {
            value: '1.00',
            salt: (view.disclosures['/terms/fee_eur'] as { salt: string }).salt,
          }),
          a.agreement_hash,
        ),
      ),
    ).toBe(Code.INTEGRITY_MISMATCH);
    expect(
      codeOf(verifyView(withField('/terms/fee_eur', { value: '120.00', salt: 'A'.repeat(22) }), a.agreement_hash)),
    ).toBe(Code.INTEGRITY_MISMATCH);
    expect(codeOf(verifyView(withField('/terms/slot', { digest: '0'.repeat(64) }), a.agreement_hash))).toBe(
      Code.INTEGRITY_MISMATCH,
    );
    const d = view.disclosures['/effective_from'] as { value: unknown; salt: string };
    expect(
      codeOf(
        verifyView(
          withField('/effective_from', { digest: fieldDigest(d.salt, '/effective_from', d.value) }),
          a.agreement_hash,
        ),
      ),
    ).toBe(Code.MATERIAL_FIELD_REDACTED);
    expect(codeOf(verifyView(view, signedAgreement(6).agreement_hash))).toBe(Code.INTEGRITY_MISMATCH);
  });

  it('checks the signatures a view carries against the committed parties', () => {
    const a = signedAgreement(7, { cosigned: false });
    const view = unwrap(publicView(a));
    expect(Object.keys(view.signatures)).toEqual([bob.did]);
    expect(codeOf(verifyView(view, a.agreement_hash))).toBe('ok');
    const stranger = { ...view, signatures: { ...view.signatures, [carol.did]: signAgreement(a, carol.secretKey) } };
    expect(codeOf(verifyView(stranger, a.agreement_hash))).toBe(Code.AGREEMENT_SIGNATURE_INVALID);
    const forged = { ...view, signatures: { [alice.did]: signAgreement(a, bob.secretKey) } };
    expect(codeOf(verifyView(forged, a.agreement_hash))).toBe(Code.AGREEMENT_SIGNATURE_INVALID);
  });

  it('refuses a view whose committed identity fields are malformed, even when the hash matches', () => {
    const disclosures = {
      '/agreement_id': { value: 'not-an-id', salt: 'A'.repeat(22) },
      '/negotiation_id': { value: 'neg_1', salt: 'A'.repeat(22) },
      '/parties': { value: ['x', 'y'], salt: 'A'.repeat(22) },
      '/effective_from': { value: '2026-05-04T00:00:00Z', salt: 'A'.repeat(22) },
      '/effective_until': { value: null, salt: 'A'.repeat(22) },
      '/metadata': { value: {}, salt: 'A'.repeat(22) },
    };
    const hash = commitmentHash(
      Object.fromEntries(Object.entries(disclosures).map(([p, d]) => [p, fieldDigest(d.salt, p, d.value)])),
    );
    expect(codeOf(verifyView({ disclosures, signatures: {} }, hash))).toBe(Code.AGREEMENT_INVALID);
  });
});

describe('the negotiation id of a non-public agreement (decisions: log commitments)', () => {
  it('is published as a salted commitment the parties can open, and the view still verifies', () => {
    const a = signedAgreement(21, { confidentiality: 'confidential' });
    const view = unwrap(publicView(a));
    expect(JSON.stringify(view)).not.toContain(a.negotiation_id);
    const commitment = negotiationCommitment(a);
    expect(view.disclosures['/negotiation_id']).toEqual({ digest: commitment.digest });
    expect(fieldDigest(commitment.salt, '/negotiation_id', a.negotiation_id)).toBe(commitment.digest);
    expect(unwrap(verifyView(view, a.agreement_hash)).redacted).toContain('/negotiation_id');
  });

  it('stays in the clear for a public agreement; other material fields stay unredactable', () => {
    const a = signedAgreement(22);
    expect(unwrap(publicView(a)).disclosures['/negotiation_id']).toEqual({
      value: a.negotiation_id,
      salt: expect.any(String),
    });
    expect(codeOf(publicView(a, ['/agreement_id']))).toBe(Code.MATERIAL_FIELD_REDACTED);
    const hiddenParties = {
      ...unwrap(publicView(a)),
      disclosures: { ...unwrap(publicView(a)).disclosures, '/parties': { digest: '0'.repeat(64) } },
    };
    expect(codeOf(verifyView(hiddenParties, a.agreement_hash))).toBe(Code.MATERIAL_FIELD_REDACTED);
  });

  it('an entry stored with the id in the clear is served concealed, with the same entry hash', () => {
    const a = signedAgreement(23, { confidentiality: 'restricted' });
    const legacy = unwrap(
      appendEntry(null, { agreement: a, now: Date.parse('2026-05-04T00:00:00Z'), redact: ['/terms/fee_eur'] }),
    );
    expect(JSON.stringify(legacy)).toContain(a.negotiation_id);
    const served = publishedEntry(legacy);
    expect(JSON.stringify(served)).not.toContain(a.negotiation_id);
    expect(served.entry_hash).toBe(legacy.entry_hash);
    expect(codeOf(verifyChain([served]))).toBe('ok');
    const open = unwrap(appendEntry(null, { agreement: signedAgreement(24), now: Date.parse('2026-05-04T00:00:00Z') }));
    expect(publishedEntry(open)).toBe(open);
  });
});
