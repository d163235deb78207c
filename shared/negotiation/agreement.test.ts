import { describe, expect, it } from 'vitest';
import { utf8 } from '../crypto/bytes';
import { canonicalize } from '../crypto/jcs';
import { unwrap } from '../errors';
import {
  addAgreementSignature,
  agreementHash,
  agreementIdFor,
  agreementSigningBytes,
  buildAgreement,
  signAgreement,
  termsWindowProblem,
  verifyAgreement,
  type Agreement,
  type AgreementInput,
} from './agreement';
import { signNegotiationDocument, type Proposal } from './documents';
import { NegotiationErrorCode as Code } from './error-codes';
import { commitmentHash, digestMap } from './field-commitments';
import { alice, bob, carol, SEED, TERMS, tamper } from './test-support/fixtures';

const proposal = signNegotiationDocument<Proposal>(
  {
    proposal_id: 'prp_01HX2QFP4N8R5T6V7W8X9Y0Z1A',
    negotiation_id: 'neg_01HX2QF8GZRP9V3K5YXJW0AQ7M',
    previous_proposal_id: null,
    from: alice.did,
    to: bob.did,
    round: 1,
    category: 'pricing',
    terms: { ...TERMS, effective_from: '2026-05-04T00:00:00Z', effective_until: '2026-11-04T00:00:00Z' },
    valid_until: '2026-05-10T12:00:00Z',
  },
  alice.secretKey,
);

const input: AgreementInput = {
  negotiation_id: proposal.negotiation_id,
  parties: [alice.did, bob.did],
  confidentiality: 'confidential',
  regulated_obligations: [
    { party: bob.did, profession: 'financial', obligations: ['know-your-customer'], counterparty_unregulated: true },
  ],
  proposal,
  accepted_at: '2026-05-03T10:00:00.000Z',
  salt_seed: SEED,
};

const signedByBoth = (): Agreement => {
  const a = buildAgreement(input);
  return {
    ...a,
    signatures: { [alice.did]: signAgreement(a, alice.secretKey), [bob.did]: signAgreement(a, bob.secretKey) },
  };
};

describe('buildAgreement (§3.5)', () => {
  it('is deterministic and carries the §3.5 fields, the §3.7 metadata and no signatures yet', () => {
    const a = buildAgreement(input);
    expect(buildAgreement(input)).toEqual(a);
    expect(a).toMatchObject({
      agreement_id: agreementIdFor(input.negotiation_id, proposal.proposal_id),
      negotiation_id: input.negotiation_id,
      parties: [alice.did, bob.did],
      terms: proposal.terms,
      effective_from: '2026-05-04T00:00:00Z',
      effective_until: '2026-11-04T00:00:00Z',
      metadata: { category: 'pricing', round: 1, confidentiality: 'confidential', accepted_at: input.accepted_at },
      signatures: {},
    });
    expect(a.metadata.regulated_obligations[0]?.profession).toBe('financial');
    expect(a.agreement_id).toMatch(/^agr_[0-9a-f]{32}$/);
  });

  it('agreement_hash is sha256- + hex over the JCS digest map of the agreement without hash and signatures', () => {
    const { agreement_hash, signatures: _s, ...body } = buildAgreement(input);
    expect(agreement_hash).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(agreement_hash).toBe(commitmentHash(digestMap(body)));
    expect(agreementHash(body)).toBe(agreement_hash);
  });

  it('any change to any committed field, or to the salt seed, changes the hash', () => {
    const { agreement_hash: h, signatures: _s, ...body } = buildAgreement(input);
    const variants = [
      { ...body, terms: { ...body.terms, price_per_call_eur: '0.0041' } },
      { ...body, terms: { ...body.terms, extra: true } },
      { ...body, parties: [bob.did, alice.did] as const },
      { ...body, negotiation_id: 'neg_other' },
      { ...body, effective_until: null },
      { ...body, metadata: { ...body.metadata, confidentiality: 'public' as const } },
      { ...body, salt_seed: 'B'.repeat(43) },
    ];
    for (const v of variants) expect(agreementHash(v as typeof body)).not.toBe(h);
  });
});

describe('signing and verifying agreements', () => {
  it('both parties sign the JCS bytes of {type, agreement_id, agreement_hash}', () => {
    const a = buildAgreement(input);
    expect(agreementSigningBytes(a)).toEqual(
      utf8(canonicalize({ agreement_hash: a.agreement_hash, agreement_id: a.agreement_id, type: 'agreement' })),
    );
  });

  it('reports each party: valid, missing or invalid; complete only when both verify', () => {
    const a = buildAgreement(input);
    expect(unwrap(verifyAgreement(a))).toEqual({
      agreement_hash: a.agreement_hash,
      signatures: { [alice.did]: 'missing', [bob.did]: 'missing' },
      complete: false,
    });
    const both = signedByBoth();
    expect(unwrap(verifyAgreement(both)).complete).toBe(true);
    const bad = { ...both, signatures: { ...both.signatures, [bob.did]: tamper(both.signatures[bob.did]!) } };
    expect(unwrap(verifyAgreement(bad)).signatures).toEqual({ [alice.did]: 'valid', [bob.did]: 'invalid' });
  });

  it("refuses malformed agreements, twin parties, strangers' signatures and a wrong hash", () => {
    const a = signedByBoth();
    const codeOf = (x: unknown) => {
      const r = verifyAgreement(x);
      return r.ok ? 'ok' : r.error.code;
    };
    expect(codeOf({ ...a, extra: 1 })).toBe(Code.AGREEMENT_INVALID);
    expect(codeOf({ ...a, parties: [alice.did, alice.did] })).toBe(Code.AGREEMENT_INVALID);
    expect(codeOf({ ...a, signatures: { ...a.signatures, [carol.did]: signAgreement(a, carol.secretKey) } })).toBe(
      Code.AGREEMENT_INVALID,
    );
    expect(codeOf({ ...a, terms: { ...a.terms, calls_per_month: 1 } })).toBe(Code.AGREEMENT_HASH_MISMATCH);
    expect(codeOf({ ...a, agreement_hash: `sha256-${'1'.repeat(64)}` })).toBe(Code.AGREEMENT_HASH_MISMATCH);
  });

  it('addAgreementSignature adds a verifying signature once per party', () => {
    const a = buildAgreement(input);
    const withBob = unwrap(addAgreementSignature(a, bob.did, signAgreement(a, bob.secretKey)));
    expect(Object.keys(withBob.signatures)).toEqual([bob.did]);
    const codeOf = (r: ReturnType<typeof addAgreementSignature>) => (r.ok ? 'ok' : r.error.code);
    expect(codeOf(addAgreementSignature(withBob, bob.did, signAgreement(a, bob.secretKey)))).toBe(
      Code.AGREEMENT_ALREADY_SIGNED,
    );
    expect(codeOf(addAgreementSignature(a, carol.did, signAgreement(a, carol.secretKey)))).toBe(Code.NOT_A_PARTY);
    expect(codeOf(addAgreementSignature(a, alice.did, signAgreement(a, bob.secretKey)))).toBe(
      Code.AGREEMENT_SIGNATURE_INVALID,
    );
    expect(codeOf(addAgreementSignature({ ...a, agreement_hash: `sha256-${'2'.repeat(64)}` }, alice.did, 'x'))).toBe(
      Code.AGREEMENT_HASH_MISMATCH,
    );
  });
});

describe('termsWindowProblem (decision: effective dates)', () => {
  it('accepts no window, a start only, or a start before an end', () => {
    expect(termsWindowProblem({})).toBeNull();
    expect(termsWindowProblem({ effective_from: '2026-05-04T00:00:00Z' })).toBeNull();
    expect(
      termsWindowProblem({ effective_from: '2026-05-04T00:00:00Z', effective_until: '2026-05-05T00:00:00Z' }),
    ).toBeNull();
  });
  it('refuses malformed dates, an end without a start, an end not after the start', () => {
    expect(termsWindowProblem({ effective_from: 20260504 })).toMatch(/effective_from/);
    expect(termsWindowProblem({ effective_until: '2026-05-05T00:00:00Z' })).toMatch(/requires/);
    expect(termsWindowProblem({ effective_from: '2026-05-04T00:00:00Z', effective_until: 'later' })).toMatch(
      /effective_until/,
    );
    expect(
      termsWindowProblem({ effective_from: '2026-05-04T00:00:00Z', effective_until: '2026-05-04T00:00:00Z' }),
    ).toMatch(/after/);
  });
});
