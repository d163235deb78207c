// RFC 0002 §3.5: the Agreement an acceptance produces. It is built deterministically from the
// negotiation, the accepted proposal and the acceptance, so both parties and the Tool compute
// the same bytes; `agreement_hash` commits to salted per-field digests (field-commitments.ts),
// and each party signs a short statement naming that hash.
import { z } from 'zod';
import { canonicalBytes } from '../crypto/jcs';
import { sha256Hex } from '../crypto/sha256';
import { signDocument, signingBytes, verifyDocument, type DidSignatureCheck } from '../crypto/signed-document';
import { fail, ok, type Result } from '../errors';
import { ConfidentialityClass, RegulatedObligation } from './confidentiality';
import type { Proposal } from './documents';
import { NegotiationErrorCode as Code } from './error-codes';
import { commitmentHash, digestMap } from './field-commitments';
import {
  AgreementId,
  Category,
  HashString,
  NegotiationId,
  PartyDid,
  ProposalId,
  SaltSeed,
  Signature,
  Terms,
  Timestamp,
} from './primitives';

export const AgreementMetadata = z.strictObject({
  category: Category,
  accepted_proposal_id: ProposalId,
  round: z.int().min(1),
  accepted_at: Timestamp,
  /** §3.7: the most restrictive party's class. */
  confidentiality: ConfidentialityClass,
  /** §3.7: the regulated obligations flag. */
  regulated_obligations: z.array(RegulatedObligation),
});
export type AgreementMetadata = z.infer<typeof AgreementMetadata>;

export const Agreement = z.strictObject({
  agreement_id: AgreementId,
  negotiation_id: NegotiationId,
  parties: z.tuple([PartyDid, PartyDid]),
  terms: Terms,
  effective_from: Timestamp,
  /** Null when the accepted terms set no end: the agreement runs until terminated under its terms. */
  effective_until: Timestamp.nullable(),
  metadata: AgreementMetadata,
  salt_seed: SaltSeed,
  agreement_hash: HashString,
  signatures: z.record(PartyDid, Signature),
});
export type Agreement = z.infer<typeof Agreement>;
export type AgreementBody = Omit<Agreement, 'agreement_hash' | 'signatures'>;

export interface AgreementInput {
  readonly negotiation_id: string;
  readonly parties: readonly [PartyDid, PartyDid];
  readonly confidentiality: ConfidentialityClass;
  readonly regulated_obligations: readonly RegulatedObligation[];
  readonly proposal: Proposal;
  /** The acceptance's signed `at`. */
  readonly accepted_at: string;
  readonly salt_seed: string;
}

/** One id per accepted proposal, derivable by anyone: no party has to choose it. */
export const agreementIdFor = (negotiationId: string, proposalId: string): string =>
  `agr_${sha256Hex(canonicalBytes(['oap-rfc0002-agreement-id', negotiationId, proposalId])).slice(0, 32)}`;

/** Reserved term names that set the agreement's effective window (decisions: effective dates). */
export function termsWindowProblem(terms: Terms): string | null {
  const from = terms['effective_from'];
  const until = terms['effective_until'];
  if (from !== undefined && !Timestamp.safeParse(from).success)
    return 'terms.effective_from must be an RFC 3339 UTC timestamp.';
  if (until === undefined) return null;
  if (!Timestamp.safeParse(until).success) return 'terms.effective_until must be an RFC 3339 UTC timestamp.';
  if (from === undefined) return 'terms.effective_until requires terms.effective_from.';
  return Date.parse(until as string) > Date.parse(from as string)
    ? null
    : 'terms.effective_until must be after terms.effective_from.';
}

export const agreementHash = (body: AgreementBody): HashString => commitmentHash(digestMap(body));

export function buildAgreement(input: AgreementInput): Agreement {
  const { proposal } = input;
  const from = proposal.terms['effective_from'];
  const until = proposal.terms['effective_until'];
  const body: AgreementBody = {
    agreement_id: agreementIdFor(input.negotiation_id, proposal.proposal_id),
    negotiation_id: input.negotiation_id,
    parties: [input.parties[0], input.parties[1]],
    terms: proposal.terms,
    effective_from: typeof from === 'string' ? from : input.accepted_at,
    effective_until: typeof until === 'string' ? until : null,
    metadata: {
      category: proposal.category,
      accepted_proposal_id: proposal.proposal_id,
      round: proposal.round,
      accepted_at: input.accepted_at,
      confidentiality: input.confidentiality,
      regulated_obligations: input.regulated_obligations.map((o) => ({ ...o, obligations: [...o.obligations] })),
    },
    salt_seed: input.salt_seed,
  };
  return { ...body, agreement_hash: agreementHash(body), signatures: {} };
}

// What a party signs: a typed statement naming the hash. It is short enough to show in full
// before signing, and verifiable from a public log entry whose terms are redacted.
const statement = (a: Pick<Agreement, 'agreement_id' | 'agreement_hash'>) =>
  ({ type: 'agreement', agreement_id: a.agreement_id, agreement_hash: a.agreement_hash }) as const;

/** The exact bytes both parties sign: JCS of {type:"agreement", agreement_id, agreement_hash}. */
export const agreementSigningBytes = (a: Pick<Agreement, 'agreement_id' | 'agreement_hash'>): Uint8Array =>
  signingBytes(statement(a), 'signature');

export const signAgreement = (a: Pick<Agreement, 'agreement_id' | 'agreement_hash'>, secretKey: Uint8Array): string =>
  signDocument(statement(a), 'signature', secretKey).signature;

export const agreementSignatureVerifies = (
  a: Pick<Agreement, 'agreement_id' | 'agreement_hash'>,
  party: PartyDid,
  signature: string,
  check?: DidSignatureCheck,
): boolean =>
  (check === undefined
    ? verifyDocument({ ...statement(a), signature }, 'signature', party)
    : verifyDocument({ ...statement(a), signature }, 'signature', party, check)
  ).ok;

export type SignatureStatus = 'valid' | 'missing' | 'invalid';

export interface AgreementVerdict {
  readonly agreement_hash: HashString;
  readonly signatures: Readonly<Record<PartyDid, SignatureStatus>>;
  /** Both parties' signatures verify: the agreement is fully co-signed. */
  readonly complete: boolean;
}

/** Checks the schema and the hash, then reports each party's signature. */
export function verifyAgreement(input: unknown, check?: DidSignatureCheck): Result<AgreementVerdict> {
  const parsed = Agreement.safeParse(input);
  if (!parsed.success)
    return fail(Code.AGREEMENT_INVALID, 'Not a valid agreement document.', { issues: parsed.error.issues });
  const a = parsed.data;
  if (a.parties[0] === a.parties[1]) return fail(Code.AGREEMENT_INVALID, 'An agreement needs two distinct parties.');
  const strangers = Object.keys(a.signatures).filter((did) => !a.parties.includes(did as PartyDid));
  if (strangers.length > 0)
    return fail(Code.AGREEMENT_INVALID, 'The agreement carries signatures of non-parties.', { signers: strangers });
  const { agreement_hash: claimed, signatures, ...body } = a;
  const actual = agreementHash(body);
  if (actual !== claimed)
    return fail(Code.AGREEMENT_HASH_MISMATCH, 'agreement_hash does not match the agreement.', { claimed, actual });
  const status: Record<PartyDid, SignatureStatus> = {};
  for (const party of a.parties) {
    const signature = signatures[party];
    status[party] =
      signature === undefined
        ? 'missing'
        : agreementSignatureVerifies(a, party, signature, check)
          ? 'valid'
          : 'invalid';
  }
  return ok({ agreement_hash: claimed, signatures: status, complete: a.parties.every((p) => status[p] === 'valid') });
}

/** Adds one party's signature, refusing strangers, second signatures and signatures that fail. */
export function addAgreementSignature(
  agreement: Agreement,
  party: PartyDid,
  signature: string,
  check?: DidSignatureCheck,
): Result<Agreement> {
  const verdict = verifyAgreement(agreement, check);
  if (!verdict.ok) return verdict;
  if (!agreement.parties.includes(party)) return fail(Code.NOT_A_PARTY, `${party} is not a party to this agreement.`);
  if (agreement.signatures[party] !== undefined)
    return fail(Code.AGREEMENT_ALREADY_SIGNED, `${party} has already signed this agreement.`);
  if (!agreementSignatureVerifies(agreement, party, signature, check)) {
    return fail(
      Code.AGREEMENT_SIGNATURE_INVALID,
      `The signature does not verify against ${party} over the agreement statement.`,
    );
  }
  return ok({ ...agreement, signatures: { ...agreement.signatures, [party]: signature } });
}
