// One entry of the agent registry, as `GET /agents` returns it (OSNAP §3.3 "Agents Response").
import { z } from 'zod';
import { OsnapId } from './fields';

export const SCOPES = ['public', 'private'] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

/** Tool (capability) names: the keys of `tools`, matched by `?capability=`. */
export const ToolName = z.string().min(1).max(256);

/**
 * `description` and `plugin` are the spec's. `kind`, `request_format` and `SLA` are ours, so a
 * tools_response (§3.4) can be built from the entry: see tools-response.ts.
 */
export const ToolDeclaration = z.looseObject({
  description: z.string(),
  plugin: z.string().min(1).optional(),
  kind: z.enum(['information', 'task']).optional(),
  request_format: z.record(z.string(), z.unknown()).optional(),
  SLA: z.string().min(1).optional(),
});
export type ToolDeclaration = z.infer<typeof ToolDeclaration>;

export const AgentEntry = z.looseObject({
  agent_id: OsnapId,
  agent_name: z.string().optional(),
  agent_description: z.string().optional(),
  agent_endpoint: z.url({ protocol: /^https?$/ }).optional(),
  tools: z.record(ToolName, ToolDeclaration),
  scope: Scope,
  /** Who may see a private entry. Without it a private entry is visible to nobody. */
  authorized_agents: z.array(OsnapId).optional(),
});
export type AgentEntry = z.infer<typeof AgentEntry>;
