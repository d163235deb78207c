// The registry filter behind GET /agents (OSNAP §3.3): `?capability=`, `?scope=`, and who is
// asking. Pure; the caller's identity must come from authentication (a verified signature or
// a session), never from a query parameter the caller chose.
import type { AgentEntry, Scope } from './agent-entry';

export interface AgentsFilter {
  /** A tool name: matches that key of `tools`, or any key in its dotted namespace. */
  readonly capability?: string | undefined;
  readonly scope?: Scope | undefined;
  /** The authenticated agent id asking; undefined for an anonymous caller. */
  readonly caller?: string;
}

/**
 * May `caller` see `entry` at all? Public entries: everyone. Private entries: only the agent
 * ids in `authorized_agents`; an anonymous caller never, and nor does the agent itself unless
 * it lists itself (the spec names no other exception).
 */
export function isVisibleTo(entry: AgentEntry, caller: string | undefined): boolean {
  if (entry.scope === 'public') return true;
  return caller !== undefined && (entry.authorized_agents ?? []).includes(caller);
}

/**
 * Does the entry offer `capability`? Exact key, or a key under it in the dotted namespace
 * Agora intents use: `translation` finds `translation.en_zh`, never `translations`.
 */
export function hasCapability(entry: AgentEntry, capability: string): boolean {
  if (capability.length === 0) return false;
  return Object.keys(entry.tools).some((name) => name === capability || name.startsWith(`${capability}.`));
}

/**
 * The entries `filter.caller` may see that match the query, in input order. Returned entries
 * never reveal who else may see them: `authorized_agents` is dropped from public entries
 * (where it means nothing) and narrowed to the caller on private ones.
 */
export function filterAgents(entries: readonly AgentEntry[], filter: AgentsFilter = {}): AgentEntry[] {
  const { capability, scope, caller } = filter;
  return entries.flatMap((entry) => {
    if (!isVisibleTo(entry, caller)) return [];
    if (scope !== undefined && entry.scope !== scope) return [];
    if (capability !== undefined && !hasCapability(entry, capability)) return [];
    return [redact(entry, caller)];
  });
}

function redact(entry: AgentEntry, caller: string | undefined): AgentEntry {
  const { authorized_agents: _authorized, ...rest } = entry;
  return entry.scope === 'private' && caller !== undefined ? { ...rest, authorized_agents: [caller] } : rest;
}
