// RFC 0002 over HTTP (/oap/…) and the console's view of it (/api/negotiations). Bodies are the
// signed documents of shared/negotiation/documents.ts (decisions-negotiation.md §3, §4, §21).
import { z } from 'zod';
import { Agreement } from '../negotiation/agreement';
import { ConfidentialityClass } from '../negotiation/confidentiality';
import { CoSignature } from '../negotiation/cosign';
import { Acceptance, OpenDocument, Proposal, Rejection, Withdrawal } from '../negotiation/documents';
import { InclusionProof } from '../negotiation/inclusion-proof';
import { ManifestDeclaration } from '../negotiation/manifest';
import { RedactionRequest } from '../negotiation/redaction-request';
import { NegotiationStatus } from '../negotiation/state';
import { operation } from './operation';

export const NegotiationStateName = NegotiationStatus;
export type NegotiationStateName = NegotiationStatus;

export const NegotiationSummary = z.object({
  id: z.string(),
  state: NegotiationStateName,
  parties: z.tuple([z.string(), z.string()]),
  opened_by: z.string(),
  category: z.string(),
  rounds: z.number(),
  max_rounds: z.number(),
  confidentiality: ConfidentialityClass,
  regulated_obligations: z.array(
    z.object({ party: z.string(), profession: z.string(), obligations: z.array(z.string()) }),
  ),
  created_at: z.string(),
  last_activity: z.string(),
  latest_proposal_id: z.string().nullable(),
  valid_until: z.string().nullable(),
  expiring_soon: z.boolean(),
  agreement_id: z.string().nullable(),
  log_index: z.number().nullable(),
  version: z.number(),
});
export type NegotiationSummary = z.infer<typeof NegotiationSummary>;

const Json = z.record(z.string(), z.unknown());
/** A transparency log entry as published (terms above `public` redacted, decisions §16). */
const PublishedEntry = Json.describe(
  'A published transparency log entry (shared/negotiation/transparency-log.ts publishedEntry)',
);

/** The bytes a party signs to co-sign the agreement (decisions-negotiation.md §13). */
export const NegotiationSigning = z.object({
  statement_jcs: z.string(),
  statement_base64url: z.string(),
  agreement_hash: z.string(),
  canonical_agreement: z.string(),
});
export type NegotiationSigning = z.infer<typeof NegotiationSigning>;
/** The Tool's limits this negotiation was opened under (shared/negotiation/manifest.ts NegotiationLimits). */
export const NegotiationLimits = z.object({
  categories: z.array(z.string()).nullable(),
  maxRounds: z.number(),
  defaultValidityMinutes: z.number(),
  clockSkewMs: z.number(),
});

/**
 * The server's check of an agreement (shared/negotiation/agreement.ts verifyAgreement): each
 * party's signature, or why the document is not a valid agreement. The browser checks again.
 */
export const AgreementVerdictAnswer = z.union([
  z.object({
    agreement_hash: z.string(),
    signatures: z.record(z.string(), z.enum(['valid', 'missing', 'invalid'])),
    /** Both parties' signatures verify. */
    complete: z.boolean(),
  }),
  z.object({
    error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
  }),
]);
/** What a non-public log entry shows instead of the negotiation id, and how a party opens it. */
export const NegotiationCommitment = z.object({ pointer: z.string(), salt: z.string(), digest: z.string() });

// History items stay loose: the browser verifies each signed document itself, and a tampered
// one must still be shown (as not verified) rather than fail the whole answer.
export const NegotiationDetail = z.object({
  negotiation: NegotiationSummary,
  history: z.array(Json),
  agreement: Json.nullable(),
  agreement_verdict: AgreementVerdictAnswer.nullable(),
  signing: NegotiationSigning.nullable(),
  log: z.object({ index: z.number(), entry: Json }).nullable(),
  limits: NegotiationLimits,
  /** The documents each party may send next, by party DID. */
  available_actions: z.record(z.string(), z.array(z.string())),
});
export type NegotiationDetail = z.infer<typeof NegotiationDetail>;

export const NegotiationList = z.object({ now: z.string(), negotiations: z.array(NegotiationSummary) });
export const NegotiationListQuery = z.object({
  state: NegotiationStatus.optional(),
  party: z.string().min(1).max(512).optional(),
  category: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

export const Opened = z.object({ negotiation: NegotiationSummary });
export const StepAnswer = z.object({ negotiation: NegotiationSummary, log_entry: Json.optional() });
export const CosignAnswer = z.object({
  negotiation: NegotiationSummary,
  agreement: Agreement.nullable(),
  verdict: AgreementVerdictAnswer.nullable(),
  log_entry: Json.nullable(),
});
export const AgreementAnswer = z.object({
  agreement: Agreement,
  verdict: AgreementVerdictAnswer.nullable(),
  signing: NegotiationSigning,
  log: z.object({ index: z.number(), entry: Json }).nullable(),
  log_commitment: NegotiationCommitment,
});

export const LogPageQuery = z.object({
  from: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
/** The newest entry of the log (shared/negotiation/transparency-log.ts LogHead). */
export const LogHead = z.object({ index: z.number().int(), entry_hash: z.string(), timestamp: z.string() });
export const LogPage = z.object({
  entries: z.array(PublishedEntry),
  size: z.number().int(),
  head: LogHead.nullable(),
  next_from: z.number().int().nullable(),
});
export type LogPage = z.infer<typeof LogPage>;
export const LogEntryAnswer = z.object({ entry: PublishedEntry, head: LogHead.nullable() });
export const LogProof = z.object({ proof: InclusionProof, head_hash: z.string(), size: z.number().int() });
export type LogProof = z.infer<typeof LogProof>;
/** LogProof as a verifier reads it: the proof unchecked, so a malformed one is reported by
 * verifyInclusion as not verified (with its reason) instead of refused as an answer. */
export const UncheckedLogProof = LogProof.extend({ proof: z.unknown() });
export type UncheckedLogProof = z.infer<typeof UncheckedLogProof>;
export const Redacted = z.object({ entry: PublishedEntry });

const STEP_REFUSALS = {
  400: 'INVALID_DOCUMENT, INVALID_REQUEST',
  401: 'SIGNATURE_INVALID, AGREEMENT_SIGNATURE_INVALID',
  403: 'NOT_A_PARTY, NOT_RECIPIENT',
  404: 'NOT_FOUND',
  409: 'NEGOTIATION_TERMINAL, INVALID_TRANSITION, STALE_PREVIOUS_PROPOSAL, STALE_PROPOSAL, PROPOSAL_ID_REUSED, NOT_YOUR_TURN, ROUND_NOT_MONOTONIC, PROPOSAL_EXPIRED, CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'CATEGORY_MISMATCH, INVALID_RECIPIENT, CLOCK_SKEW, MAX_ROUNDS_EXCEEDED, VALIDITY_INVALID, INVALID_TERMS, NEGOTIATION_MISMATCH',
};
// docs/decisions-negotiation.md §36.
const READ_AUTH =
  'Public negotiations: anyone. Others: an operator session, or an RFC 9421 signature by a party (keyid = the party did:key; covering @method @authority @path @query; created within 120 s; a fresh nonce).';
const READ_REFUSALS = {
  401: 'HTTP_SIGNATURE_MISSING, HTTP_SIGNATURE_INVALID, HTTP_SIGNATURE_EXPIRED, HTTP_SIGNATURE_REPLAYED',
  403: 'NOT_A_PARTY',
  404: 'NOT_FOUND',
};

const step = (event: string, summary: string, body: z.ZodType) =>
  operation({
    method: 'post',
    path: `/oap/negotiation/{id}/${event}`,
    errors: 'coded',
    summary,
    description: 'A refusal is a coded error and changes nothing.',
    body,
    responses: { 200: { description: 'Applied', schema: StepAnswer } },
    refusals: STEP_REFUSALS,
  });

export const NEGOTIATION_OPERATIONS = [
  operation({
    method: 'get',
    path: '/oap/manifest',
    errors: 'coded',
    summary: 'RFC 0002 §3.6 manifest declaration',
    responses: { 200: { description: 'Declaration', schema: ManifestDeclaration } },
  }),
  operation({
    method: 'post',
    path: '/oap/negotiation/open',
    errors: 'coded',
    summary: 'Open a negotiation (start → OPEN)',
    description: 'A signed open document (decisions-negotiation.md §3).',
    body: OpenDocument,
    responses: { 201: { description: 'Opened', schema: Opened } },
    refusals: {
      400: 'INVALID_DOCUMENT',
      401: 'SIGNATURE_INVALID',
      403: 'NOT_A_PARTY',
      409: 'NEGOTIATION_ID_REUSED',
      413: 'PAYLOAD_TOO_LARGE',
      422: 'PARTIES_INVALID, CATEGORY_NOT_SUPPORTED, MAX_ROUNDS_EXCEEDED, CLOCK_SKEW',
      429: 'RATE_LIMITED',
    },
  }),
  operation({
    method: 'get',
    path: '/oap/negotiation/{id}',
    errors: 'coded',
    summary: 'A negotiation with its signed history',
    description: READ_AUTH,
    responses: { 200: { description: 'The record', schema: NegotiationDetail } },
    refusals: READ_REFUSALS,
  }),
  step('propose', 'Propose or counter-propose', Proposal),
  step('accept', 'Accept the latest proposal', Acceptance),
  step('reject', 'Reject the latest proposal', Rejection),
  step('withdraw', 'Withdraw from the negotiation', Withdrawal),
  operation({
    method: 'get',
    path: '/oap/negotiation/{id}/agreement',
    errors: 'coded',
    summary: 'The agreement, its verdict and its log entry',
    description: READ_AUTH,
    responses: { 200: { description: 'The agreement', schema: AgreementAnswer } },
    refusals: READ_REFUSALS,
  }),
  operation({
    method: 'post',
    path: '/oap/negotiation/{id}/agreement/cosign',
    errors: 'coded',
    summary: 'Co-sign the agreement (decisions-negotiation.md §13)',
    body: CoSignature,
    responses: { 200: { description: 'Co-signed', schema: CosignAnswer } },
    refusals: STEP_REFUSALS,
  }),
  operation({
    method: 'get',
    path: '/oap/transparency-log',
    errors: 'coded',
    summary: 'Log entries in pages (RFC 0002 §3.5)',
    query: LogPageQuery,
    responses: { 200: { description: 'A page', schema: LogPage } },
    refusals: { 400: 'INVALID_REQUEST' },
  }),
  operation({
    method: 'get',
    path: '/oap/transparency-log/{index}',
    errors: 'coded',
    summary: 'One log entry and the head',
    responses: { 200: { description: 'The entry', schema: LogEntryAnswer } },
    refusals: { 400: 'INVALID_REQUEST', 404: 'LOG_INDEX_OUT_OF_RANGE' },
  }),
  operation({
    method: 'get',
    path: '/oap/transparency-log/{index}/proof',
    errors: 'coded',
    summary: 'Inclusion proof of an entry to the current head',
    responses: { 200: { description: 'The proof', schema: LogProof } },
    refusals: { 400: 'INVALID_REQUEST', 404: 'LOG_INDEX_OUT_OF_RANGE' },
  }),
  operation({
    method: 'post',
    path: '/oap/transparency-log/{index}/redact',
    errors: 'coded',
    summary: "A party's signed redaction of non-material fields (RFC 0002 §6)",
    body: RedactionRequest,
    responses: { 200: { description: 'Redacted', schema: Redacted } },
    refusals: {
      400: 'INVALID_REQUEST, INVALID_DOCUMENT',
      401: 'SIGNATURE_INVALID',
      403: 'NOT_A_PARTY',
      404: 'LOG_INDEX_OUT_OF_RANGE',
      422: 'MATERIAL_FIELD_REDACTED, UNKNOWN_FIELD',
    },
  }),
  operation({
    method: 'get',
    path: '/api/negotiations',
    errors: 'coded',
    summary: 'Console: negotiations, newest activity first',
    query: NegotiationListQuery,
    responses: { 200: { description: 'Summaries', schema: NegotiationList } },
    refusals: { 401: 'UNAUTHORIZED' },
  }),
  operation({
    method: 'get',
    path: '/api/negotiations/{id}',
    errors: 'coded',
    summary: 'Console: one negotiation',
    responses: { 200: { description: 'The record', schema: NegotiationDetail } },
    refusals: { 401: 'UNAUTHORIZED', 404: 'NOT_FOUND' },
  }),
];
