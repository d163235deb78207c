// The OpenAPI 3.1 description of the protocol endpoints other implementations rely on (BRIEF:
// "an OpenAPI document for the HTTP API"), served at GET /openapi.json. openapi.test.ts checks
// that it parses and that every path it lists is served.
import { VERSION } from '../version';
import { NEGOTIATION_PATHS, NEGOTIATION_SCHEMAS } from './openapi-negotiation';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json(ref('AgoraError')) });
const signedBody = (description: string) => ({ required: true, description, content: json(ref('Envelope')) });
const query = (name: string, description: string, schema: object = { type: 'string' }, required = false) => ({ name, in: 'query', required, description, schema });

export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Switchboard protocol API',
    version: VERSION,
    description:
      'Agora v1.0 relay (/events, /health, /seed) and the agent directory (OSNAP GET /agents, registration and signed queries). ' +
      'Every envelope is signed: remove `sig`, canonicalize with RFC 8785 (JCS), sign the UTF-8 bytes with the sender did:key Ed25519 key, put the unpadded base64url signature in `sig`. ' +
      'RFC 0002 negotiation (/oap/negotiation, /oap/manifest, /oap/transparency-log): every document is signed the same way in `signature` by its party\'s did:key. ' +
      'Every path: a request whose Host is not localhost, an IP literal or a configured name answers 421 MISDIRECTED_REQUEST (/health and /ready excepted); a JSON body nested deeper than 64 levels answers 400 JSON_TOO_DEEP before it is parsed. ' +
      'Decisions where the specs are silent: docs/decisions-agora.md, docs/decisions-negotiation.md, docs/decisions-server.md.',
  },
  paths: {
    '/events': {
      post: {
        summary: 'Submit one signed Agora envelope',
        description:
          'Checked in order: size (64 KiB, on the wire), JSON, exact version "1.0", schema, signature against sender.id, ±5 min window, replay (id), meta.ttl, thread state machine. ' +
          'A refusal stores nothing. Re-posting the same signed envelope answers ok with duplicate: true. A REQUEST with intent directory.register is a directory registration (see POST /agents).',
        requestBody: signedBody('A signed Agora v1.0 envelope'),
        responses: {
          '200': { description: 'Stored (or already stored)', content: json(ref('PostAnswer')) },
          '400': error('INVALID_REQUEST (schema, version, signature encoding, clock ahead) or TIMEOUT (stale ts, meta.ttl expired)'),
          '403': error('FORBIDDEN: signature does not verify, or the sender may not send this in the thread'),
          '409': error('The id was used for another envelope, or the thread cannot take this message now'),
          '413': error('Larger than 64 KiB'),
        },
      },
      get: {
        summary: 'Long-poll for events',
        description: 'Returns at once when events match; otherwise waits until one arrives or the timeout. Resume with since=<cursor> to never miss or repeat an event.',
        parameters: [
          query('since', 'ISO 8601 UTC timestamp (events with ts >= since) or a cursor `cur_<n>` from an earlier answer (events after it)', { type: 'string' }, true),
          query('recipient', 'recipient.id'),
          query('sender', 'sender.id'),
          query('type', 'Message type', { type: 'string', enum: ['REQUEST', 'OFFER', 'ACCEPT', 'RESULT', 'ERROR', 'CANCEL'] }),
          query('thread', 'thread.id'),
          query('timeout', 'Seconds to wait (default 30, above 60 read as 60, 0 answers at once)', { type: 'integer', minimum: 0 }),
          query('limit', 'Page size (default 100, max 500)', { type: 'integer', minimum: 1, maximum: 500 }),
        ],
        responses: { '200': { description: 'A page of events', content: json(ref('EventPage')) }, '400': error('A bad parameter') },
      },
    },
    '/health': {
      get: {
        summary: 'Health check',
        responses: {
          '200': {
            description: 'Alive',
            content: json({ type: 'object', required: ['ok', 'version'], properties: { ok: { const: true }, version: { type: 'string', description: 'Switchboard release' }, agora: { type: 'string', description: 'Agora protocol version spoken', const: '1.0' } } }),
          },
        },
      },
    },
    '/ready': {
      get: {
        summary: 'Readiness',
        description: 'For a load balancer: 200 when this instance can serve (its store answers, its broker connection is up); 503 naming what is not. /health is liveness only.',
        responses: {
          '200': { description: 'Ready', content: json({ type: 'object', required: ['ready', 'checks'], properties: { ready: { const: true }, checks: { type: 'object', additionalProperties: { type: 'string' } } } }) },
          '503': {
            description: 'Not ready (Retry-After: 5)',
            content: json({ type: 'object', required: ['ready', 'code', 'message', 'checks'], properties: { ready: { const: false }, code: { const: 'NOT_READY' }, message: { type: 'string' }, checks: { type: 'object', additionalProperties: { type: 'string' } } } }),
          },
        },
      },
    },
    '/seed': {
      post: {
        summary: 'Seed demo threads',
        description: 'Three complete demo threads (12 signed envelopes). Needs a facilitator session cookie, demo or not.',
        responses: {
          '200': { description: 'Seeded', content: json({ type: 'object', required: ['ok', 'count'], properties: { ok: { const: true }, count: { type: 'integer' } } }) },
          '401': { description: 'No session' },
          '403': { description: 'Not a facilitator' },
        },
      },
    },
    '/agents': {
      get: {
        summary: 'OSNAP agents query',
        description: 'Entries the caller may see; the caller is the operator session (cookie) or anonymous. Agents identify themselves with POST /agents/query.',
        parameters: [query('capability', 'Tool name or dotted namespace (translation finds translation.en_zh)'), query('scope', 'public or private', { type: 'string', enum: ['public', 'private'] })],
        responses: { '200': { description: 'OSNAP §3.3 agents response', content: json({ type: 'array', items: ref('AgentEntry') }) }, '400': { description: 'OSNAP_INVALID_QUERY' } },
      },
      post: {
        summary: 'Register a capability manifest',
        description: 'A signed REQUEST with payload.intent "directory.register" and payload.params { manifest, scope?, authorized_agents?, aor_agent_id? }; manifest.auth.public_key must be the signing key. A newer ts replaces the entry.',
        requestBody: signedBody('Registration envelope'),
        responses: { '200': { description: 'Registered', content: json({ type: 'object', properties: { ok: { const: true }, id: { type: 'string' }, registered: { type: 'string' }, duplicate: { type: 'boolean' } } }) }, '400': error('Invalid'), '403': error('Key mismatch or bad signature'), '409': error('A newer registration exists, or the id was used') },
      },
    },
    '/agents/query': {
      post: {
        summary: 'Signed OSNAP agents_query or tools_query',
        description: 'A signed REQUEST with intent osnap.agents_query or osnap.tools_query and the OSNAP message as payload.params; its sender_agent_id must be the signer. Private entries are shown to DIDs in their authorized_agents.',
        requestBody: signedBody('Query envelope'),
        responses: { '200': { description: 'agents_response or tools_response', content: json({ type: 'object', properties: { ok: { const: true }, message: { type: 'object' } } }) }, '400': error('Invalid'), '403': error('Not the signer'), '404': { description: 'No such agent the caller may see' } },
      },
    },
    '/agents/{did}/tools': {
      get: {
        summary: 'OSNAP tools_response for one agent (operator session or anonymous)',
        parameters: [{ name: 'did', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'tools_response message', content: json({ type: 'object' }) }, '404': { description: 'No such agent the caller may see' } },
      },
    },
    ...NEGOTIATION_PATHS,
    '/api/scheduling/threads': {
      get: {
        summary: 'OACoP scheduling threads (console read model)',
        description: 'Built from the OACoP messages carried through the relay (REQUEST envelopes with intent oacop.<type>), newest activity first. Operator session required.',
        responses: { '200': { description: 'Thread summaries', content: json({ type: 'object', required: ['threads'], properties: { threads: { type: 'array', items: ref('SchedulingThreadSummary') } } }) }, '401': error('No session') },
      },
    },
    '/api/scheduling/threads/{threadId}': {
      get: {
        summary: 'One OACoP scheduling thread: state, participants with phase and revision, suggested slot, log',
        parameters: [{ name: 'threadId', in: 'path', required: true, schema: { type: 'string' }, description: 'The OACoP threadId, URL-encoded (urn%3Auuid%3A…)' }],
        responses: { '200': { description: 'The thread', content: json({ type: 'object', required: ['thread'], properties: { thread: ref('SchedulingThread') } }) }, '401': error('No session'), '404': error('Unknown thread') },
      },
    },
    '/api/tasks': {
      get: {
        summary: 'OACoP task board: tasks with blocked-by lists, columns by status, tree by parentTaskId, log',
        responses: { '200': { description: 'The board', content: json(ref('TaskBoard')) }, '401': error('No session') },
      },
    },
    '/api/ledger/burns': {
      post: {
        summary: 'Burn credits in the local ledger standing in for OAPP (OACoP §6.2)',
        description: 'A signed REQUEST with payload.intent "oapp.burn" and payload.params.amount (positive decimal string). The burner is the signer; txId is oap:tx:<envelope id>. The same envelope again answers the same record. A DID burns only what it holds (credited with `cli ledger credit`); burns are rate limited per address and per DID.',
        requestBody: signedBody('Burn envelope'),
        responses: { '201': { description: 'Recorded', content: json(ref('Burn')) }, '400': error('Invalid envelope or amount'), '402': error('INSUFFICIENT_BALANCE: nothing stored, nothing debited'), '403': error('Bad signature'), '409': error('txId exists with other content'), '429': error('RATE_LIMITED (Retry-After)') },
      },
    },
    '/api/ledger/burns/{txId}': {
      get: {
        summary: 'Verify a proofOfBurn by txId',
        parameters: [{ name: 'txId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The burn', content: json(ref('Burn')) }, '404': error('Unknown txId') },
      },
    },
    '/api/ledger/balances/{did}': {
      get: {
        summary: 'A did:key\'s balance in the local ledger ("0" when never credited)',
        parameters: [{ name: 'did', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The balance', content: json({ type: 'object', properties: { did: { type: 'string' }, balance: { type: 'string' } } }) }, '400': error('Not a did:key') },
      },
    },
    '/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } } } },
  },
  components: {
    schemas: {
      ...NEGOTIATION_SCHEMAS,
      Slot: { type: 'object', required: ['start', 'end'], properties: { start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' } } },
      SchedulingParticipant: {
        type: 'object',
        required: ['did', 'required', 'phase', 'revision'],
        properties: {
          did: { type: 'string' },
          required: { type: 'boolean' },
          phase: { type: 'string', enum: ['INVITED', 'INTERESTED', 'TENTATIVE', 'DECLINED', 'CONFIRMED', 'CANCELLED'] },
          revision: { type: 'integer', description: 'Highest revision this participant has shown it holds (answer, receipt, error, cancel); 0 before any' },
          response: { type: 'object', properties: { status: { type: 'string' }, slots: { type: 'array', items: ref('Slot') }, respondingToRevision: { type: 'integer' } } },
          lastError: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, revision: { type: 'integer' }, at: { type: 'integer' } } },
        },
      },
      SchedulingThreadSummary: {
        type: 'object',
        properties: {
          threadId: { type: 'string' },
          status: { type: 'string', enum: ['PROPOSED', 'CONFIRMED', 'CANCELLED'] },
          revision: { type: 'integer' },
          initiator: { type: 'string' },
          title: { type: ['string', 'null'] },
          duration: { type: ['string', 'null'] },
          timeWindow: { oneOf: [ref('Slot'), { type: 'null' }] },
          finalSlot: { oneOf: [ref('Slot'), { type: 'null' }] },
          participants: { type: 'array', items: { type: 'object', properties: { did: { type: 'string' }, required: { type: 'boolean' }, phase: { type: 'string' }, revision: { type: 'integer' } } } },
          bestSlot: { description: 'First candidate (all required free, most optional ones), or null', type: ['object', 'null'] },
          openedAt: { type: 'integer' },
          updatedAt: { type: 'integer' },
        },
      },
      SchedulingThread: {
        type: 'object',
        properties: {
          threadId: { type: 'string' },
          state: { type: 'object', description: 'shared/oacop ThreadState: status, revision, initiator, object, constraints, responses, finalSlot, reason, cancelledBy' },
          participants: { type: 'array', items: ref('SchedulingParticipant') },
          suggestion: { description: 'null unless PROPOSED with a window and a duration; else { candidates, nearestAlternatives } (each a Slot with optionalFree and missingRequired) or { error }', type: ['object', 'null'] },
          log: { type: 'array', items: { type: 'object', properties: { seq: { type: 'integer' }, envelopeId: { type: 'string' }, at: { type: 'integer' }, from: { type: 'string' }, to: { type: 'string' }, type: { type: 'string' }, revision: { type: 'integer' }, outcome: { type: 'string', enum: ['applied', 'copy', 'refused', 'noted'] }, error: { type: 'object' } } } },
          openedAt: { type: 'integer' },
          updatedAt: { type: 'integer' },
        },
      },
      TaskBoard: {
        type: 'object',
        properties: {
          tasks: { type: 'array', items: { type: 'object', description: 'shared/oacop TaskState plus blockedBy, blocked, assignedAt, updatedAt, lastError' } },
          columns: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Task ids by ASSIGNED, ACCEPTED, IN_PROGRESS, BLOCKED, COMPLETED, DECLINED' },
          tree: { type: 'array', items: { type: 'object', description: '{ task, children }' } },
          treeError: { type: 'object' },
          dependencyError: { type: 'object' },
          log: { type: 'array', items: { type: 'object' } },
        },
      },
      Burn: {
        type: 'object',
        required: ['txId', 'burnedBy', 'amount', 'burnedAt', 'usedFor'],
        properties: { txId: { type: 'string' }, burnedBy: { type: 'string' }, amount: { type: 'string' }, burnedAt: { type: 'integer' }, usedFor: { type: ['string', 'null'], description: 'The threadId the burn paid for' } },
      },
      Envelope: {
        type: 'object',
        required: ['version', 'id', 'ts', 'type', 'sender', 'payload', 'thread', 'sig'],
        properties: {
          version: { const: '1.0' },
          id: { type: 'string', maxLength: 256 },
          ts: { type: 'string', format: 'date-time', description: 'UTC with Z' },
          type: { type: 'string', enum: ['REQUEST', 'OFFER', 'ACCEPT', 'RESULT', 'ERROR', 'CANCEL'] },
          sender: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'did:key (Ed25519)' }, name: { type: 'string' }, url: { type: 'string' } } },
          recipient: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
          payload: { type: 'object' },
          thread: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
          meta: { type: 'object', properties: { ttl: { type: 'integer', minimum: 0 }, hop: { type: 'integer', minimum: 0 } } },
          sig: { type: 'string', description: 'unpadded base64url Ed25519 signature over JCS(envelope without sig)' },
        },
      },
      PostAnswer: {
        type: 'object',
        required: ['ok', 'id'],
        properties: {
          ok: { const: true },
          id: { type: 'string' },
          cursor: { type: 'string' },
          duplicate: { type: 'boolean' },
          registered: { type: 'string' },
          thread: { type: 'object', properties: { id: { type: 'string' }, status: { type: 'string' } } },
        },
      },
      EventPage: {
        type: 'object',
        required: ['ok', 'events', 'hasMore', 'cursor'],
        properties: { ok: { const: true }, events: { type: 'array', items: ref('Envelope') }, hasMore: { type: 'boolean' }, cursor: { type: 'string', pattern: '^cur_[0-9]+$' } },
      },
      AgoraError: {
        type: 'object',
        required: ['ok', 'code', 'message', 'details'],
        properties: {
          ok: { const: false },
          code: { type: 'string', enum: ['INVALID_REQUEST', 'INTENT_NOT_SUPPORTED', 'INSUFFICIENT_BUDGET', 'TIMEOUT', 'UNAVAILABLE', 'FORBIDDEN', 'INTERNAL_ERROR'] },
          message: { type: 'string' },
          details: { type: 'object', required: ['reason'], properties: { reason: { type: 'string' } } },
        },
      },
      AgentEntry: {
        type: 'object',
        required: ['agent_id', 'tools', 'scope'],
        properties: {
          agent_id: { type: 'string' },
          agent_name: { type: 'string' },
          agent_description: { type: 'string' },
          agent_endpoint: { type: 'string' },
          tools: { type: 'object', additionalProperties: { type: 'object' } },
          scope: { type: 'string', enum: ['public', 'private'] },
          authorized_agents: { type: 'array', items: { type: 'string' } },
          manifest: { type: 'object', description: 'The Agora capability manifest as registered' },
          presence: { type: 'object', properties: { status: { type: 'string', enum: ['online', 'stale', 'offline', 'unknown'] }, last_seen_at: { type: ['string', 'null'] }, sources: { type: 'array', items: { type: 'string' } } } },
          registered_at: { type: 'string' },
        },
      },
    },
  },
} as const;
