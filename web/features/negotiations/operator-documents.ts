// The documents the operator signs as a party, built with shared/negotiation and signed in the
// browser with the operator's non-extractable key (web/lib/identity/operator-signer.ts); only the
// signed documents are sent.
import { CodedError } from '@shared/errors';
import { encodeBase64url } from '@shared/crypto/base64url';
import { agreementSigningBytes } from '@shared/negotiation/agreement';
import { agreementOnAcceptance } from '@shared/negotiation/apply-acceptance';
import { nextProposalSkeleton } from '@shared/negotiation/available-actions';
import type { ConfidentialityClass } from '@shared/negotiation/confidentiality';
import {
  type Acceptance,
  type SignedDocument,
  type Unsigned,
  type OpenDocument,
  type Proposal,
  type Rejection,
  type Withdrawal,
} from '@shared/negotiation/documents';
import { newId, newSaltSeed } from '@shared/negotiation/ids';
import type { PartyDid, Terms } from '@shared/negotiation/primitives';
import { latestProposal, type NegotiationState } from '@shared/negotiation/state';
import { operatorSigner, signDocumentAs, type OperatorSigner } from '@web/lib/identity/operator-signer';

const operatorKey = (expectedDid: string): Promise<OperatorSigner> => operatorSigner(expectedDid);

/** shared/negotiation/documents.ts `signNegotiationDocument`, signed by the operator's key. */
async function signNegotiationDocument<T extends SignedDocument>(body: Unsigned<T>, key: OperatorSigner): Promise<T> {
  return (await signDocumentAs(key, body, 'signature')) as unknown as T;
}

/** shared/negotiation/agreement.ts `signAgreement`: the statement's bytes, signed by the operator's key. */
const signAgreement = async (
  agreement: { agreement_id: string; agreement_hash: string },
  key: OperatorSigner,
): Promise<string> => encodeBase64url(await key.sign(agreementSigningBytes(agreement)));

const iso = (ms: number) => new Date(ms).toISOString();

export interface OpenInput {
  readonly me: PartyDid;
  readonly counterparty: PartyDid;
  readonly category: string;
  readonly mine: ConfidentialityClass;
  readonly theirs: ConfidentialityClass;
}

export async function signOpen(input: OpenInput, now = Date.now()): Promise<OpenDocument> {
  const key = await operatorKey(input.me);
  return signNegotiationDocument<OpenDocument>(
    {
      type: 'open',
      negotiation_id: newId('neg', now),
      parties: [input.me, input.counterparty],
      opened_by: input.me,
      category: input.category,
      confidentiality: { [input.me]: input.mine, [input.counterparty]: input.theirs },
      at: iso(now),
    },
    key,
  );
}

export async function signProposal(
  state: NegotiationState,
  me: PartyDid,
  terms: Terms,
  validForMinutes: number,
  now = Date.now(),
): Promise<Proposal> {
  const key = await operatorKey(me);
  return signNegotiationDocument<Proposal>(
    {
      ...nextProposalSkeleton(state, me),
      proposal_id: newId('prp', now),
      terms,
      valid_until: iso(now + validForMinutes * 60_000),
    },
    key,
  );
}

/** Builds the agreement this acceptance produces (§3.5), signs it, and signs the acceptance around it. */
export async function signAcceptance(state: NegotiationState, me: PartyDid, now = Date.now()): Promise<Acceptance> {
  const key = await operatorKey(me);
  const latest = latestProposal(state);
  if (latest === null) throw new CodedError('INVALID_TRANSITION', 'There is no proposal to accept.');
  const at = iso(now);
  const saltSeed = newSaltSeed();
  const agreement = agreementOnAcceptance(state, latest, at, saltSeed);
  return signNegotiationDocument<Acceptance>(
    {
      type: 'accept',
      negotiation_id: state.negotiation_id,
      proposal_id: latest.proposal_id,
      by: me,
      at,
      salt_seed: saltSeed,
      agreement_signature: await signAgreement(agreement, key),
    },
    key,
  );
}

export async function signRejection(
  state: NegotiationState,
  me: PartyDid,
  reason: string,
  now = Date.now(),
): Promise<Rejection> {
  const key = await operatorKey(me);
  const latest = latestProposal(state);
  if (latest === null) throw new CodedError('INVALID_TRANSITION', 'There is no proposal to reject.');
  return signNegotiationDocument<Rejection>(
    {
      type: 'reject',
      negotiation_id: state.negotiation_id,
      proposal_id: latest.proposal_id,
      by: me,
      at: iso(now),
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    },
    key,
  );
}

export async function signWithdrawal(
  state: NegotiationState,
  me: PartyDid,
  reason: string,
  now = Date.now(),
): Promise<Withdrawal> {
  const key = await operatorKey(me);
  return signNegotiationDocument<Withdrawal>(
    {
      type: 'withdraw',
      negotiation_id: state.negotiation_id,
      by: me,
      at: iso(now),
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    },
    key,
  );
}

/** The co-signature: the operator's Ed25519 signature over the agreement statement (statement_jcs). */
export async function signStatement(
  agreement: { agreement_id: string; agreement_hash: string },
  me: PartyDid,
): Promise<string> {
  const key = await operatorKey(me);
  return signAgreement(agreement, key);
}
