// OACoP §7 JSON Schemas (normative), one object per message. They are copied from the spec as
// printed with a single change: §7.1 carried a `// ISO 8601 Duration` comment after the
// `duration` pattern, which is not JSON; it is removed here (the duration grammar is enforced in
// check-message.ts). Nothing else is added, removed or reordered, so these remain the spec's
// schemas; what the prose adds lives in prose-schemas.ts (docs/decisions-oacop.md, "Schemas").

export const ProposeCollaborationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['type', 'threadId', 'revision', 'object'],
  properties: {
    type: { const: 'ProposeCollaboration' },
    threadId: { type: 'string', format: 'uri' },
    revision: { type: 'integer', minimum: 1 },
    object: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { enum: ['Event', 'Task'] },
        duration: { type: 'string', pattern: '^P' },
      },
    },
    proofOfBurn: {
      type: 'object',
      required: ['txId'],
      properties: { txId: { type: 'string' } },
    },
  },
} as const;

export const ProposalResponseSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['type', 'threadId', 'respondingToRevision', 'status'],
  properties: {
    type: { const: 'ProposalResponse' },
    respondingToRevision: { type: 'integer' },
    status: { enum: ['INTERESTED', 'DECLINED', 'TENTATIVE'] },
    availableSlots: {
      type: 'array',
      items: {
        type: 'object',
        required: ['start', 'end'],
        properties: {
          start: { type: 'string', format: 'date-time' },
          end: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
} as const;

export const ConfirmCollaborationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['type', 'threadId', 'revision', 'finalSlot'],
  properties: {
    type: { const: 'ConfirmCollaboration' },
    revision: { type: 'integer' },
    finalSlot: {
      type: 'object',
      required: ['start', 'end'],
      properties: {
        start: { type: 'string', format: 'date-time' },
        end: { type: 'string', format: 'date-time' },
      },
    },
  },
} as const;

export const AssignTaskSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['type', 'threadId', 'object', 'deadline'],
  properties: {
    type: { const: 'AssignTask' },
    threadId: { type: 'string', format: 'uri' },
    object: {
      type: 'object',
      required: ['type', 'title'],
      properties: {
        type: { const: 'Task' },
        title: { type: 'string' },
        parentTaskId: { type: 'string', format: 'uri' },
        dependencies: { type: 'array', items: { type: 'string' } },
      },
    },
    deadline: { type: 'string', format: 'date-time' },
  },
} as const;

export const TaskUpdateSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['type', 'threadId', 'status'],
  properties: {
    type: { const: 'TaskUpdate' },
    threadId: { type: 'string', format: 'uri' },
    status: { enum: ['ACCEPTED', 'DECLINED', 'IN_PROGRESS', 'COMPLETED', 'BLOCKED'] },
    progress: { type: 'integer', minimum: 0, maximum: 100 },
    comment: { type: 'string' },
  },
} as const;

export const CancelCollaborationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['type', 'threadId', 'revision', 'reason'],
  properties: {
    type: { const: 'CancelCollaboration' },
    threadId: { type: 'string', format: 'uri' },
    revision: { type: 'integer' },
    reason: { type: 'string' },
  },
} as const;

/** The six §7 schemas keyed by the message `type` they validate. */
export const NormativeSchemas = {
  ProposeCollaboration: ProposeCollaborationSchema,
  ProposalResponse: ProposalResponseSchema,
  ConfirmCollaboration: ConfirmCollaborationSchema,
  AssignTask: AssignTaskSchema,
  TaskUpdate: TaskUpdateSchema,
  CancelCollaboration: CancelCollaborationSchema,
} as const;

export type OacopMessageType = keyof typeof NormativeSchemas;
export const OACOP_MESSAGE_TYPES = Object.keys(NormativeSchemas) as readonly OacopMessageType[];
