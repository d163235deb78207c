// Payload schemas of the seven envelope types (AOR §5) and the content of each result
// `message_type` (AOR §6). Fields the spec shows are checked; unknown fields inside a payload or
// content are kept, because the spec gives examples rather than closed shapes and the gateway
// republishes candidates unchanged (docs/decisions-aor.md, "Strictness").
import { z } from 'zod';
import { AorId } from './ids';
import { UnixSeconds } from './time';

const Text = z.string().regex(/\S/, 'must not be blank');

// AOR §6: every disclosure names one of these.
export const MESSAGE_TYPES = [
  'ack',
  'clarifying_question',
  'progress',
  'finding',
  'risk',
  'result',
  'artifact_link',
] as const;
export const MessageType = z.enum(MESSAGE_TYPES);
export type MessageType = z.infer<typeof MessageType>;

export const AckContent = z.looseObject({ text: Text }); // §6.1
export const ClarifyingQuestionContent = z.looseObject({ question: Text }); // §6.2
export const ProgressContent = z.looseObject({ text: Text }); // §6.3
export const FindingContent = z.looseObject({ bullets: z.array(Text).min(1) }); // §6.4
// §6.5 shows only "high"; the scale is the project's choice.
export const RISK_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const RiskContent = z.looseObject({
  text: Text,
  severity: z.enum(RISK_SEVERITIES).optional(),
  mitigation: Text.optional(),
});
export const FinalResultContent = z.looseObject({ text: Text }); // §6.6
// §6.7. Only http(s): the console renders this as a link, and `javascript:` must never be one.
export const ArtifactLinkContent = z.looseObject({ url: z.httpUrl(), label: Text.optional() });

export const RESULT_CONTENT = {
  ack: AckContent,
  clarifying_question: ClarifyingQuestionContent,
  progress: ProgressContent,
  finding: FindingContent,
  risk: RiskContent,
  result: FinalResultContent,
  artifact_link: ArtifactLinkContent,
} as const satisfies Record<MessageType, z.ZodType>;

const resultOf = <T extends MessageType>(messageType: T) =>
  z.looseObject({ task_id: AorId, message_type: z.literal(messageType), content: RESULT_CONTENT[messageType] });

// §5.6, keyed on message_type so each content shape is checked against its own schema.
export const ResultPayload = z.discriminatedUnion('message_type', [
  resultOf('ack'),
  resultOf('clarifying_question'),
  resultOf('progress'),
  resultOf('finding'),
  resultOf('risk'),
  resultOf('result'),
  resultOf('artifact_link'),
]);
export type ResultPayload = z.infer<typeof ResultPayload>;

export const SayPayload = z.looseObject({ text: Text }); // §5.1
export type SayPayload = z.infer<typeof SayPayload>;

// §5.2. Only `task_id` and `goal` are required: the spec calls nothing else mandatory.
export const TaskPayload = z.looseObject({
  task_id: AorId,
  goal: Text,
  format: Text.optional(),
  deadline: UnixSeconds.optional(),
});
export type TaskPayload = z.infer<typeof TaskPayload>;

/** Upper bound of a grant's budget; a larger one is surely a mistake, not an intent. */
export const MAX_GRANT_MESSAGES = 10_000;

// §5.3. A grant that allows nothing or no messages cannot be used, so it is refused as malformed.
export const MicGrantPayload = z.looseObject({
  task_id: AorId,
  agent_id: AorId,
  max_messages: z.int().min(1).max(MAX_GRANT_MESSAGES),
  allowed_message_types: z.array(MessageType).min(1),
  expires_at: UnixSeconds,
});
export type MicGrantPayload = z.infer<typeof MicGrantPayload>;

const Reason = z.string().min(1).max(256);

// §5.4: "Reason is optional but recommended".
export const MicRevokePayload = z.looseObject({ task_id: AorId, agent_id: AorId, reason: Reason.optional() });
export type MicRevokePayload = z.infer<typeof MicRevokePayload>;

// §5.5: only the description is called optional, so `ts` is required.
export const HeartbeatPayload = z.looseObject({ ts: UnixSeconds, description: z.string().optional() });
export type HeartbeatPayload = z.infer<typeof HeartbeatPayload>;

// §5.7. `message_id` and `task_id` are optional: a candidate that is not even JSON has neither.
// `reason` stays an open string so rejects from other implementations still parse; ours are
// always a RejectReason. `detail` is a project extension saying what was wrong.
export const RejectPayload = z.looseObject({
  message_id: AorId.optional(),
  task_id: AorId.optional(),
  reason: Reason,
  detail: z.string().max(1024).optional(),
});
export type RejectPayload = z.infer<typeof RejectPayload>;
