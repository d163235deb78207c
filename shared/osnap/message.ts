// The OSNAP message (§3.1): sender and receiver ids, message_type, payload, metadata, as a
// union keyed on `message_type` whose payload schema follows from the type.
import { z } from 'zod';
import { Metadata, OsnapId } from './fields';
import {
  AgentsQueryPayload,
  AgentsResponsePayload,
  ErrorHandlingPayload,
  RequestPayload,
  ResponsePayload,
  StatusUpdatePayload,
  TaskExecutionPayload,
  ToolsResponsePayload,
} from './payloads';

/** §3.2 "Message Types": request, response, task execution, status update, error handling. */
export const CORE_MESSAGE_TYPES = ['request', 'response', 'task_execution', 'status_update', 'error_handling'] as const;
/** §3.3 and §3.4 introduce these for discovery. */
export const DISCOVERY_MESSAGE_TYPES = ['agents_query', 'agents_response', 'tools_query', 'tools_response'] as const;
export const MESSAGE_TYPES = [...CORE_MESSAGE_TYPES, ...DISCOVERY_MESSAGE_TYPES] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/**
 * Names read as another type (docs/decisions-osnap.md, "task_request"): §3.1.2's example
 * uses `task_request`, which §3.2 does not list; its payload is a task_execution payload.
 */
export const MESSAGE_TYPE_ALIASES: Readonly<Record<string, MessageType>> = { task_request: 'task_execution' };

const common = {
  sender_agent_id: OsnapId,
  receiver_agent_id: OsnapId,
  metadata: Metadata,
};

const variant = <T extends MessageType, P extends z.ZodType>(type: T, payload: P) =>
  z.looseObject({ ...common, message_type: z.literal(type), payload });

/** §3.3's and §3.4's answers, named: the directory's HTTP answers carry them (shared/contract/relay.ts). */
export const AgentsResponseMessage = variant('agents_response', AgentsResponsePayload);
export const ToolsResponseMessage = variant('tools_response', ToolsResponsePayload);

export const OsnapMessage = z.discriminatedUnion('message_type', [
  variant('request', RequestPayload),
  variant('response', ResponsePayload),
  variant('task_execution', TaskExecutionPayload),
  variant('status_update', StatusUpdatePayload),
  variant('error_handling', ErrorHandlingPayload),
  // Both queries may come without a payload: §3.4's tools_query example has none.
  variant('agents_query', AgentsQueryPayload.optional()),
  AgentsResponseMessage,
  variant('tools_query', z.looseObject({}).optional()),
  ToolsResponseMessage,
]);
export type OsnapMessage = z.infer<typeof OsnapMessage>;
export type OsnapMessageOf<T extends MessageType> = Extract<OsnapMessage, { message_type: T }>;
