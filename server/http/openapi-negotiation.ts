// The RFC 0002 part of the served OpenAPI document: /oap/negotiation, /oap/manifest,
// /oap/transparency-log and the console's /api/negotiations. Bodies are the signed documents of
// shared/negotiation/documents.ts (docs/decisions-negotiation.md §3, §4, §21).
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const coded = (description: string) => ({ description, content: json(ref('CodedError')) });

// docs/decisions-negotiation.md §36.
const READ_AUTH = 'Public negotiations: anyone. Others: an operator session, or an RFC 9421 signature by a party (Signature-Input/Signature; alg ed25519, keyid = the party did:key; covering @method @authority @path @query; created within 120 s; a fresh nonce).';
const READ_REFUSALS = {
  '401': coded('HTTP_SIGNATURE_MISSING, HTTP_SIGNATURE_INVALID, HTTP_SIGNATURE_EXPIRED, HTTP_SIGNATURE_REPLAYED'),
  '403': coded('NOT_A_PARTY'),
  '404': coded('NOT_FOUND (with a session)'),
};
const body = (name: string, description: string) => ({ required: true, description, content: json(ref(name)) });
const idParam = { name: 'id', in: 'path', required: true, description: 'negotiation_id (neg_…)', schema: { type: 'string' } };
const indexParam = { name: 'index', in: 'path', required: true, description: 'Log index, from 0', schema: { type: 'integer', minimum: 0 } };
const query = (name: string, description: string, schema: object = { type: 'string' }) => ({ name, in: 'query', required: false, description, schema });

const did = { type: 'string', description: 'Ed25519 did:key', pattern: '^did:key:z' };
const signature = { type: 'string', pattern: '^[A-Za-z0-9_-]{86}$', description: 'Ed25519 over JCS(document without `signature`), unpadded base64url' };
const timestamp = { type: 'string', format: 'date-time', description: 'RFC 3339 UTC with Z' };
const hash = { type: 'string', pattern: '^sha256-[0-9a-f]{64}$' };
const confidentiality = { type: 'string', enum: ['public', 'internal', 'confidential', 'restricted'] };

const STEP_REFUSALS = {
  '400': coded('INVALID_DOCUMENT (schema; details.issues), INVALID_REQUEST (not JSON)'),
  '401': coded('SIGNATURE_INVALID, AGREEMENT_SIGNATURE_INVALID'),
  '403': coded('NOT_A_PARTY, NOT_RECIPIENT'),
  '404': coded('NOT_FOUND: no such negotiation'),
  '409': coded('NEGOTIATION_TERMINAL, INVALID_TRANSITION, STALE_PREVIOUS_PROPOSAL, STALE_PROPOSAL, PROPOSAL_ID_REUSED, NOT_YOUR_TURN, ROUND_NOT_MONOTONIC, PROPOSAL_EXPIRED, CONFLICT'),
  '413': coded('PAYLOAD_TOO_LARGE: over 64 KiB'),
  '422': coded('CATEGORY_MISMATCH, INVALID_RECIPIENT, CLOCK_SKEW, MAX_ROUNDS_EXCEEDED, VALIDITY_INVALID, INVALID_TERMS, NEGOTIATION_MISMATCH'),
};

const step = (summary: string, description: string, schema: string) => ({
  post: {
    summary,
    description: `${description} A refusal is a coded error and changes nothing.`,
    parameters: [idParam],
    requestBody: body(schema, `A signed ${schema} document`),
    responses: { '200': { description: 'Applied', content: json(ref('StepAnswer')) }, ...STEP_REFUSALS },
  },
});

export const NEGOTIATION_PATHS = {
  '/oap/manifest': {
    get: { summary: 'RFC 0002 §3.6 manifest declaration', description: 'The limits this Tool enforces (categories, max_rounds, default validity, binding acceptance).', responses: { '200': { description: 'Declaration', content: json(ref('ManifestDeclaration')) } } },
  },
  '/oap/negotiation/open': {
    post: {
      summary: 'Open a negotiation (start → OPEN)',
      description: 'The body is a signed open document (decisions-negotiation.md §3): the opener mints negotiation_id, names exactly two parties, the category, optional max_rounds (≤ the manifest), each party\'s confidentiality class and regulated professions.',
      requestBody: body('OpenDocument', 'Signed by opened_by'),
      responses: {
        '201': { description: 'Opened', content: json({ type: 'object', required: ['negotiation'], properties: { negotiation: ref('NegotiationSummary') } }) },
        '400': coded('INVALID_DOCUMENT'), '401': coded('SIGNATURE_INVALID'), '403': coded('NOT_A_PARTY'),
        '409': coded('NEGOTIATION_ID_REUSED'), '413': coded('PAYLOAD_TOO_LARGE'),
        '422': coded('PARTIES_INVALID, CATEGORY_NOT_SUPPORTED, MAX_ROUNDS_EXCEEDED, CLOCK_SKEW'),
        '429': coded('RATE_LIMITED: too many opens from this address or this DID (Retry-After)'),
      },
    },
  },
  '/oap/negotiation/{id}': {
    get: {
      summary: 'The negotiation history',
      description: `Every signed step with the Tool's received_at; a client checks it with shared replayHistory(history, limits). Also the summary, the agreement with its verdict and signing bytes, the log position and each party's available actions. ${READ_AUTH}`,
      parameters: [idParam],
      responses: { '200': { description: 'History', content: json(ref('NegotiationDetail')) }, ...READ_REFUSALS },
    },
  },
  '/oap/negotiation/{id}/propose': step('Propose or counter (→ PROPOSED / COUNTERED)', 'An RFC 0002 §3.4 proposal signed by `from`: round = previous + 1, previous_proposal_id = the latest proposal, turns alternate, valid_until in the future.', 'Proposal'),
  '/oap/negotiation/{id}/accept': step('Accept the most recent proposal (→ ACCEPTED)', 'By its recipient; carries agreement_signature over the agreement it produces (§13). The first valid acceptance is terminal; the agreement is appended to the transparency log in the same transaction.', 'Acceptance'),
  '/oap/negotiation/{id}/reject': step('Reject the most recent proposal (→ REJECTED)', 'By its recipient.', 'Rejection'),
  '/oap/negotiation/{id}/withdraw': step('Walk away (→ WITHDRAWN)', 'By either party, from OPEN, PROPOSED or COUNTERED.', 'Withdrawal'),
  '/oap/negotiation/{id}/agreement': {
    get: {
      summary: 'The agreement, its verdict and the exact bytes to co-sign',
      description: `Also log_commitment {pointer, salt, digest}: what a non-public log entry shows instead of the negotiation id, and its opening. ${READ_AUTH}`,
      parameters: [idParam],
      responses: { '200': { description: 'Agreement', content: json(ref('AgreementAnswer')) }, ...READ_REFUSALS, '404': coded('NOT_FOUND: no agreement yet (or, with a session, no negotiation)') },
    },
  },
  '/oap/negotiation/{id}/agreement/cosign': {
    post: {
      summary: 'Co-sign the agreement (the proposer, §3.5/§5)',
      description: 'signature = Ed25519 over signing.statement_jcs (JCS of {type:"agreement", agreement_id, agreement_hash}). The status stays ACCEPTED; the signature is published into the log entry without changing its hash.',
      parameters: [idParam],
      requestBody: body('CoSignature', 'The party and its signature'),
      responses: {
        '200': { description: 'Co-signed', content: json({ type: 'object', properties: { negotiation: ref('NegotiationSummary'), agreement: ref('Agreement'), verdict: { type: 'object' }, log_entry: ref('LogEntry') } }) },
        '401': coded('AGREEMENT_SIGNATURE_INVALID'), '403': coded('NOT_A_PARTY'), '404': coded('NOT_FOUND'), '409': coded('AGREEMENT_ALREADY_SIGNED, INVALID_TRANSITION (not accepted)'),
      },
    },
  },
  '/oap/transparency-log': {
    get: {
      summary: 'Transparency log entries, paged',
      parameters: [query('from', 'First index (default 0)', { type: 'integer', minimum: 0 }), query('limit', 'Page size (default 100, max 1000)', { type: 'integer', minimum: 1, maximum: 1000 })],
      responses: { '200': { description: 'Entries ascending', content: json(ref('LogPage')) }, '400': coded('INVALID_REQUEST') },
    },
  },
  '/oap/transparency-log/{index}': {
    get: { summary: 'One log entry and the current head', parameters: [indexParam], responses: { '200': { description: 'Entry', content: json({ type: 'object', properties: { entry: ref('LogEntry'), head: ref('LogHead') } }) }, '404': coded('LOG_INDEX_OUT_OF_RANGE') } },
  },
  '/oap/transparency-log/{index}/proof': {
    get: {
      summary: 'Inclusion proof of an entry to the current head',
      description: 'The links from the entry to the head (decisions §18); check with shared verifyInclusion(proof, head_hash) and compare integrity_hash with the agreement_hash.',
      parameters: [indexParam],
      responses: { '200': { description: 'Proof', content: json(ref('ProofAnswer')) }, '404': coded('LOG_INDEX_OUT_OF_RANGE') },
    },
  },
  '/oap/transparency-log/{index}/redact': {
    post: {
      summary: 'Redact non-material fields of a public entry (§6)',
      description: 'A signed redaction request by a party (decisions §21). Only non-material fields (terms); the entry hash, the chain and every proof stay valid.',
      parameters: [indexParam],
      requestBody: body('RedactionRequest', 'Signed by `by`'),
      responses: {
        '200': { description: 'The entry as now published', content: json({ type: 'object', properties: { entry: ref('LogEntry') } }) },
        '400': coded('INVALID_DOCUMENT'), '401': coded('SIGNATURE_INVALID'), '403': coded('NOT_A_PARTY'), '404': coded('LOG_INDEX_OUT_OF_RANGE'),
        '422': coded('MATERIAL_FIELD_REDACTED, UNKNOWN_FIELD, LOG_INDEX_MISMATCH, CLOCK_SKEW'),
      },
    },
  },
  '/api/negotiations': {
    get: {
      summary: 'Console: list negotiations (operator session)',
      parameters: [
        query('state', 'Status', { type: 'string', enum: ['OPEN', 'PROPOSED', 'COUNTERED', 'ACCEPTED', 'REJECTED', 'EXPIRED', 'WITHDRAWN'] }),
        query('party', 'A party DID'), query('category', 'Category'), query('limit', '1–500, default 100', { type: 'integer', minimum: 1, maximum: 500 }),
      ],
      responses: { '200': { description: 'Newest activity first', content: json({ type: 'object', properties: { now: timestamp, negotiations: { type: 'array', items: ref('NegotiationSummary') } } }) }, '400': coded('INVALID_REQUEST'), '401': coded('UNAUTHORIZED') },
    },
  },
  '/api/negotiations/{id}': {
    get: { summary: 'Console: one negotiation (operator session)', parameters: [idParam], responses: { '200': { description: 'As GET /oap/negotiation/{id}', content: json(ref('NegotiationDetail')) }, '401': coded('UNAUTHORIZED'), '404': coded('NOT_FOUND') } },
  },
} as const;

export const NEGOTIATION_SCHEMAS = {
  CodedError: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } } },
  ManifestDeclaration: {
    type: 'object',
    required: ['negotiation'],
    properties: { negotiation: { type: 'object', required: ['supported'], properties: { supported: { type: 'boolean' }, categories: { type: 'array', items: { type: 'string' } }, max_rounds: { type: 'integer' }, default_validity_minutes: { type: 'integer' }, binding_acceptance: { type: 'boolean' }, withdrawal_penalty_terms: { type: 'string' } } } },
  },
  OpenDocument: {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'negotiation_id', 'parties', 'opened_by', 'category', 'confidentiality', 'at', 'signature'],
    properties: {
      type: { const: 'open' },
      negotiation_id: { type: 'string', pattern: '^neg_[0-9A-Za-z]{1,64}$' },
      parties: { type: 'array', items: did, minItems: 2, maxItems: 2 },
      opened_by: did,
      category: { type: 'string', pattern: '^[a-z][a-z0-9_.-]{0,63}$' },
      max_rounds: { type: 'integer', minimum: 1, maximum: 1000 },
      confidentiality: { type: 'object', description: 'Each party DID → its class; exactly the two parties', additionalProperties: confidentiality },
      regulated: { type: 'object', description: 'Party DID → medical | legal | financial', additionalProperties: { type: 'string', enum: ['medical', 'legal', 'financial'] } },
      at: timestamp,
      signature,
    },
  },
  Proposal: {
    type: 'object',
    additionalProperties: false,
    required: ['proposal_id', 'negotiation_id', 'previous_proposal_id', 'from', 'to', 'round', 'category', 'terms', 'valid_until', 'signature'],
    properties: {
      proposal_id: { type: 'string', pattern: '^prp_[0-9A-Za-z]{1,64}$' },
      negotiation_id: { type: 'string' },
      previous_proposal_id: { type: ['string', 'null'] },
      from: did, to: did,
      round: { type: 'integer', minimum: 1 },
      category: { type: 'string' },
      terms: { type: 'object', description: 'Any JSON; effective_from / effective_until are reserved (RFC 3339)' },
      valid_until: timestamp,
      signature,
    },
  },
  Acceptance: {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'negotiation_id', 'proposal_id', 'by', 'at', 'salt_seed', 'agreement_signature', 'signature'],
    properties: { type: { const: 'accept' }, negotiation_id: { type: 'string' }, proposal_id: { type: 'string' }, by: did, at: timestamp, salt_seed: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' }, agreement_signature: signature, signature },
  },
  Rejection: {
    type: 'object', additionalProperties: false, required: ['type', 'negotiation_id', 'proposal_id', 'by', 'at', 'signature'],
    properties: { type: { const: 'reject' }, negotiation_id: { type: 'string' }, proposal_id: { type: 'string' }, by: did, at: timestamp, reason: { type: 'string', maxLength: 1000 }, signature },
  },
  Withdrawal: {
    type: 'object', additionalProperties: false, required: ['type', 'negotiation_id', 'by', 'at', 'signature'],
    properties: { type: { const: 'withdraw' }, negotiation_id: { type: 'string' }, by: did, at: timestamp, reason: { type: 'string', maxLength: 1000 }, signature },
  },
  CoSignature: { type: 'object', additionalProperties: false, required: ['by', 'signature'], properties: { by: did, signature } },
  RedactionRequest: {
    type: 'object', additionalProperties: false, required: ['type', 'index', 'agreement_id', 'pointers', 'by', 'at', 'signature'],
    properties: { type: { const: 'redact' }, index: { type: 'integer', minimum: 0 }, agreement_id: { type: 'string' }, pointers: { type: 'array', items: { type: 'string', description: 'RFC 6901, e.g. /terms/price' }, minItems: 1, maxItems: 256 }, by: did, at: timestamp, signature },
  },
  NegotiationSummary: {
    type: 'object',
    properties: {
      id: { type: 'string' }, state: { type: 'string' }, parties: { type: 'array', items: did }, opened_by: did, category: { type: 'string' },
      rounds: { type: 'integer' }, max_rounds: { type: 'integer' }, confidentiality, regulated_obligations: { type: 'array', items: { type: 'object' } },
      created_at: timestamp, last_activity: timestamp, latest_proposal_id: { type: ['string', 'null'] },
      valid_until: { type: ['string', 'null'], description: 'Of the live proposal (PROPOSED/COUNTERED only)' },
      expiring_soon: { type: 'boolean', description: 'valid_until within 5 minutes' },
      agreement_id: { type: ['string', 'null'] }, log_index: { type: ['integer', 'null'] }, version: { type: 'integer', description: 'History length' },
    },
  },
  Agreement: { type: 'object', description: 'RFC 0002 §3.5 with metadata (§3.7) and salt_seed (decisions §14, §15)' },
  AgreementSigning: {
    type: 'object',
    properties: {
      statement_jcs: { type: 'string', description: 'The exact UTF-8 text each party signs' },
      statement_base64url: { type: 'string' },
      agreement_hash: hash,
      canonical_agreement: { type: 'string', description: 'JCS of the agreement without signatures' },
    },
  },
  NegotiationDetail: {
    type: 'object',
    properties: {
      negotiation: ref('NegotiationSummary'),
      history: { type: 'array', items: { type: 'object', description: '{type, document | proposal_id | by+signature, received_at}' } },
      agreement: { oneOf: [ref('Agreement'), { type: 'null' }] },
      agreement_verdict: { type: ['object', 'null'] },
      signing: { oneOf: [ref('AgreementSigning'), { type: 'null' }] },
      log: { type: ['object', 'null'], properties: { index: { type: 'integer' }, entry: ref('LogEntry') } },
      limits: { type: 'object', description: 'Frozen at open; pass to replayHistory' },
      available_actions: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string', enum: ['propose', 'accept', 'reject', 'withdraw', 'cosign'] } } },
    },
  },
  StepAnswer: { type: 'object', required: ['negotiation'], properties: { negotiation: ref('NegotiationSummary'), log_entry: ref('LogEntry') } },
  AgreementAnswer: { type: 'object', properties: { agreement: ref('Agreement'), verdict: { type: 'object' }, signing: ref('AgreementSigning'), log: { type: ['object', 'null'] }, log_commitment: { type: 'object', properties: { pointer: { const: '/negotiation_id' }, salt: { type: 'string' }, digest: { type: 'string' } } } } },
  LogHead: { type: ['object', 'null'], properties: { index: { type: 'integer' }, entry_hash: hash, timestamp } },
  LogEntry: {
    type: 'object',
    required: ['index', 'prev_hash', 'timestamp', 'kind', 'integrity_hash', 'entry_hash', 'public'],
    properties: {
      index: { type: 'integer' }, prev_hash: hash, timestamp, kind: { const: 'agreement' }, integrity_hash: hash, entry_hash: hash,
      public: { type: 'object', properties: { disclosures: { type: 'object', description: 'JSON Pointer → {value, salt} or {digest}' }, signatures: { type: 'object', additionalProperties: signature } } },
    },
  },
  LogPage: { type: 'object', properties: { entries: { type: 'array', items: ref('LogEntry') }, size: { type: 'integer' }, head: ref('LogHead'), next_from: { type: ['integer', 'null'] } } },
  ProofAnswer: {
    type: 'object',
    properties: { proof: { type: 'object', properties: { index: { type: 'integer' }, links: { type: 'array', items: { type: 'object' } } } }, head_hash: hash, size: { type: 'integer' } },
  },
} as const;
