// What OACoP's prose (§2–§4) says about a message that the §7 schemas leave out, as JSON Schema
// so it is checked the same way and the message types are derived from it too. Each message is
// validated against its §7 schema first and then against the one here; rules that span fields
// (start < end, subsets, revisions) are in check-message.ts (docs/decisions-oacop.md, "Schemas").

// OAEP DIDs are not specified in OACoP; the generic DID syntax (W3C DID Core §3.1) is enforced.
const did = { type: 'string', pattern: '^did:[a-z0-9]+:[A-Za-z0-9._:%-]+$' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const uri = { type: 'string', format: 'uri' } as const;

// §2.1 The collaboration context every message carries. `@context` (JSON-LD) is not checked.
const context = {
  id: uri,
  threadId: uri,
  sender: did,
  created: dateTime,
} as const;

// §3.2, §3.3 A slot; its order (start < end) is checked in check-message.ts.
const slot = {
  type: 'object',
  required: ['start', 'end'],
  properties: { start: dateTime, end: dateTime },
} as const;

// §2.2 CollaborationObject.
const collaborationObject = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['Event', 'Task'] },
    title: { type: 'string' },
    description: { type: 'string' },
    duration: { type: 'string' },
    location: { type: 'string' },
    icalComponent: { type: 'string' },
    parentTaskId: uri,
    dependencies: { type: 'array', items: uri, uniqueItems: true },
  },
} as const;

// §2.3 Constraint.
const constraints = {
  type: 'object',
  properties: {
    timeWindow: slot,
    participants: { type: 'array', items: did, uniqueItems: true },
    requiredParticipants: { type: 'array', items: did, uniqueItems: true },
  },
} as const;

// §3.1, §6.2 Proof-of-burn. The amount is a decimal string as in the §3.1 example.
const proofOfBurn = {
  type: 'object',
  required: ['txId'],
  properties: {
    txId: { type: 'string', minLength: 1 },
    amount: { type: 'string', pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$' },
  },
} as const;

// §2.1 "Starts at 1"; Confirm (§3.3) and Cancel (§3.5) always follow a proposal, so they are ≥ 2.
const firstRevision = { type: 'integer', minimum: 1 } as const;
const laterRevision = { type: 'integer', minimum: 2 } as const;

export const ProposeCollaborationProse = {
  type: 'object',
  required: ['object'],
  properties: { ...context, revision: firstRevision, object: collaborationObject, constraints, proofOfBurn },
} as const;

export const ProposalResponseProse = {
  type: 'object',
  required: ['threadId', 'respondingToRevision'],
  properties: { ...context, respondingToRevision: firstRevision, availableSlots: { type: 'array', items: slot } },
} as const;

export const ConfirmCollaborationProse = {
  type: 'object',
  required: ['threadId', 'revision', 'finalSlot'],
  properties: { ...context, revision: laterRevision, finalSlot: slot },
} as const;

// AssignTask and TaskUpdate have no `revision` in §7; §2.1 gives every object one, so it is
// optional here and, when present, checked like any other (docs/decisions-oacop.md, "Task revisions").
export const AssignTaskProse = {
  type: 'object',
  required: ['object'],
  properties: { ...context, revision: firstRevision, object: collaborationObject },
} as const;

export const TaskUpdateProse = {
  type: 'object',
  properties: { ...context, revision: firstRevision },
} as const;

export const CancelCollaborationProse = {
  type: 'object',
  properties: { ...context, revision: laterRevision },
} as const;

export const ProseSchemas = {
  ProposeCollaboration: ProposeCollaborationProse,
  ProposalResponse: ProposalResponseProse,
  ConfirmCollaboration: ConfirmCollaborationProse,
  AssignTask: AssignTaskProse,
  TaskUpdate: TaskUpdateProse,
  CancelCollaboration: CancelCollaborationProse,
} as const;
