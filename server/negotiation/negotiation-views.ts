// What the HTTP API answers about a negotiation (the contract in server/README.md): a summary
// for lists, and the full record (history, agreement, signing bytes, log position) for one.
import { encodeBase64url } from '@shared/crypto/base64url';
import { canonicalBytes } from '@shared/crypto/jcs';
import { agreementSigningBytes, verifyAgreement, type Agreement } from '@shared/negotiation/agreement';
import { availableActions } from '@shared/negotiation/available-actions';
import { latestProposal, proposals, type NegotiationState } from '@shared/negotiation/state';
import type { NegotiationRecord } from '../store/negotiation-store';

/** A live proposal whose valid_until is this close is flagged `expiring_soon` (decisions §23). */
export const EXPIRING_SOON_MS = 5 * 60_000;

const LIVE = new Set(['PROPOSED', 'COUNTERED']);

export function negotiationSummary(record: NegotiationRecord, now: number) {
  const s = record.state;
  const latest = latestProposal(s);
  const validUntil = LIVE.has(s.status) && latest !== null ? latest.valid_until : null;
  const left = validUntil === null ? null : Date.parse(validUntil) - now;
  return {
    id: record.id,
    state: s.status,
    parties: s.parties,
    opened_by: s.opened_by,
    category: s.category,
    rounds: proposals(s).length,
    max_rounds: s.max_rounds,
    confidentiality: s.confidentiality,
    regulated_obligations: s.regulated_obligations,
    created_at: new Date(record.createdAt).toISOString(),
    last_activity: s.updated_at,
    latest_proposal_id: latest?.proposal_id ?? null,
    valid_until: validUntil,
    expiring_soon: left !== null && left >= 0 && left <= EXPIRING_SOON_MS,
    agreement_id: s.agreement?.agreement_id ?? null,
    log_index: record.logIndex,
    version: record.version,
  };
}

/** The exact bytes each party signs, and the canonical agreement the hash commits to. */
export function agreementSigning(agreement: Agreement) {
  const bytes = agreementSigningBytes(agreement);
  const { signatures: _signatures, ...unsigned } = agreement;
  return {
    /** JCS of {type:"agreement", agreement_id, agreement_hash}: what an Ed25519 signature covers. */
    statement_jcs: new TextDecoder().decode(bytes),
    statement_base64url: encodeBase64url(bytes),
    agreement_hash: agreement.agreement_hash,
    /** JCS of the agreement without signatures (salt_seed included): what the digests commit to. */
    canonical_agreement: new TextDecoder().decode(canonicalBytes(unsigned)),
  };
}

export function agreementVerdict(agreement: Agreement | null) {
  if (agreement === null) return null;
  const verdict = verifyAgreement(agreement);
  return verdict.ok ? verdict.value : { error: verdict.error };
}

/** Which actions each party may take now (shared available-actions.ts). */
export const actionsByParty = (state: NegotiationState, now: number) =>
  Object.fromEntries(state.parties.map((p) => [p, availableActions(state, p, now)]));
