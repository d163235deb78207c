// A directory entry as an A2A Agent Card (A2A v1.0 `AgentCard`; docs/decisions-mcp.md §7): the
// name, description and skills (one per capability of its manifest) of an Agora agent, and where it
// is reached. The agent speaks Agora, not A2A's JSON-RPC: its interface names the Agora relay's
// `/events` (or the endpoint it registered) with the binding `AGORA`, so an A2A client can read
// who it is and what it does, and knows it must reach it another way.
import { z } from 'zod';
import type { AgentEntry } from '../osnap/agent-entry';

export const A2A_PROTOCOL_VERSION = '1.0';
/** The interface binding of an agent reached through the Agora relay (not one of A2A's own). */
export const AGORA_BINDING = 'AGORA';

export const AgentSkill = z.looseObject({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string(),
  tags: z.array(z.string()),
  examples: z.array(z.string()).optional(),
  inputModes: z.array(z.string()).optional(),
  outputModes: z.array(z.string()).optional(),
});
export type AgentSkill = z.infer<typeof AgentSkill>;

export const AgentInterface = z.looseObject({
  url: z.url(),
  protocolBinding: z.string().min(1),
  protocolVersion: z.string().optional(),
});

export const AgentCard = z.looseObject({
  name: z.string().min(1),
  description: z.string(),
  version: z.string(),
  supportedInterfaces: z.array(AgentInterface).min(1),
  capabilities: z
    .looseObject({ streaming: z.boolean().optional(), pushNotifications: z.boolean().optional() })
    .optional(),
  defaultInputModes: z.array(z.string()),
  defaultOutputModes: z.array(z.string()),
  skills: z.array(AgentSkill),
  documentationUrl: z.url().optional(),
});
export type AgentCard = z.infer<typeof AgentCard>;

/** The card of a directory entry; `relayEventsUrl` is this server's `/events`. */
export function agentCardOf(entry: AgentEntry, relayEventsUrl: string, version: string): AgentCard {
  const skills = Object.entries(entry.tools)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, tool]) => ({
      id: name,
      name,
      description: tool.description,
      // The dotted namespace of an Agora intent ("translation.en_zh" → "translation").
      tags: [...new Set([name.split('.')[0]!, ...(tool.kind ? [tool.kind] : [])])],
    }));
  return {
    name: entry.agent_name ?? entry.agent_id,
    description: entry.agent_description ?? '',
    version,
    supportedInterfaces: [
      { url: entry.agent_endpoint ?? relayEventsUrl, protocolBinding: AGORA_BINDING, protocolVersion: '1.0' },
    ],
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills,
  };
}
