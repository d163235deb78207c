// Builds the tools_response of OSNAP §3.4 from a registry entry, so the registry can answer a
// tools_query on an agent's behalf with what the agent declared.
import type { AgentEntry, ToolDeclaration } from './agent-entry';
import { isVisibleTo } from './filter-agents';
import type { OsnapMessageOf } from './message';
import type { InformationTool, TaskTool, ToolsResponsePayload } from './payloads';

/**
 * A task tool is one declared `kind: "task"`, or, without a kind, one with an SLA (§3.4 gives
 * SLAs to task tools only); everything else is an information tool.
 */
export const isTaskTool = (tool: ToolDeclaration): boolean =>
  tool.kind === 'task' || (tool.kind === undefined && tool.SLA !== undefined);

/** Tools sorted by name, so the same entry always gives the same bytes. */
export function toolsPayloadFromEntry(entry: AgentEntry): ToolsResponsePayload {
  const information_tools: InformationTool[] = [];
  const task_tools: TaskTool[] = [];
  for (const name of Object.keys(entry.tools).sort()) {
    const tool = entry.tools[name] as ToolDeclaration;
    const base = {
      name,
      description: tool.description,
      ...(tool.request_format === undefined ? {} : { request_format: tool.request_format }),
    };
    if (isTaskTool(tool)) task_tools.push(tool.SLA === undefined ? base : { ...base, SLA: tool.SLA });
    else information_tools.push(base);
  }
  return { information_tools, task_tools };
}

/**
 * The message answering `query` for `entry`, stamped at `now` (epoch ms); undefined when the
 * asker may not see the entry, since a private agent's tools are as private as its entry
 * (answer as for an unknown agent, so existence is not revealed either). The adapter must
 * have authenticated `query.sender_agent_id` (e.g. by the Agora envelope carrying it).
 */
export function answerToolsQuery(
  query: OsnapMessageOf<'tools_query'>,
  entry: AgentEntry,
  now: number,
): OsnapMessageOf<'tools_response'> | undefined {
  if (!isVisibleTo(entry, query.sender_agent_id)) return undefined;
  return {
    sender_agent_id: entry.agent_id,
    receiver_agent_id: query.sender_agent_id,
    message_type: 'tools_response',
    payload: toolsPayloadFromEntry(entry),
    metadata: { timestamp: new Date(now).toISOString() },
  };
}
