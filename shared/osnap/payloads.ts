// Payload of each OSNAP message type, after the examples of §3.2.1, §3.3 and §3.4. The ids
// and the fields that say what happened are required; data fields are open objects; unknown
// fields pass through.
import { z } from 'zod';
import { AgentEntry, Scope, ToolName } from './agent-entry';
import { OsnapId } from './fields';

const Data = z.record(z.string(), z.unknown());

export const RequestPayload = z.looseObject({
  request_id: OsnapId,
  request_action: z.string().min(1),
  request_data: Data.optional(),
});

export const ResponsePayload = z.looseObject({
  request_id: OsnapId,
  status: z.string().min(1),
  response_data: z.unknown().optional(),
});

export const TaskExecutionPayload = z.looseObject({
  task_id: OsnapId,
  task_name: z.string().min(1),
  task_invoke_url: z.url({ protocol: /^https?$/ }).optional(),
  task_data: Data.optional(),
});

export const StatusUpdatePayload = z.looseObject({
  task_id: OsnapId,
  task_status: z.string().min(1),
  task_result: z.unknown().optional(),
});

export const ErrorHandlingPayload = z.looseObject({
  // The example answers a request; an error about a task names the task instead.
  request_id: OsnapId.optional(),
  task_id: OsnapId.optional(),
  // A string in the example ("1001"); numbers are refused so "1001" and 1001 never both occur.
  error_code: z.string().min(1),
  error_description: z.string(),
  additional_info: z.unknown().optional(),
});

/** §3.3: the query parameters of GET /agents, as a message payload. */
export const AgentsQueryPayload = z.looseObject({
  capability: ToolName.optional(),
  scope: Scope.optional(),
});

/** §3.3: the response is the bare array of entries, in a message as over HTTP. */
export const AgentsResponsePayload = z.array(AgentEntry);

export const InformationTool = z.looseObject({
  name: ToolName,
  description: z.string(),
  request_format: Data.optional(),
});

export const TaskTool = InformationTool.extend({
  SLA: z.string().min(1).optional(),
});

/** §3.4 "Get All Agent Tools Response". */
export const ToolsResponsePayload = z.looseObject({
  information_tools: z.array(InformationTool),
  task_tools: z.array(TaskTool),
});

export type RequestPayload = z.infer<typeof RequestPayload>;
export type ResponsePayload = z.infer<typeof ResponsePayload>;
export type TaskExecutionPayload = z.infer<typeof TaskExecutionPayload>;
export type StatusUpdatePayload = z.infer<typeof StatusUpdatePayload>;
export type ErrorHandlingPayload = z.infer<typeof ErrorHandlingPayload>;
export type AgentsQueryPayload = z.infer<typeof AgentsQueryPayload>;
export type InformationTool = z.infer<typeof InformationTool>;
export type TaskTool = z.infer<typeof TaskTool>;
export type ToolsResponsePayload = z.infer<typeof ToolsResponsePayload>;
