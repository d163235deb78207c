// Searching the directory by capability or intent: free text over tool names and descriptions
// (and the agent's own name and description), and a presence filter. Pure, in the browser:
// the server's ?capability= is an exact tool name (OSNAP §3.3), which people rarely know.
export interface SearchableAgent {
  readonly agent_id: string;
  readonly agent_name?: string | undefined;
  readonly agent_description?: string | undefined;
  readonly tools: Readonly<Record<string, { readonly description: string }>>;
  readonly presence: { readonly status: string };
}

export type PresenceFilter = 'any' | 'online' | 'stale' | 'offline' | 'unknown';

export interface DirectorySearch {
  readonly text: string;
  readonly presence: PresenceFilter;
}

const words = (text: string): string[] => text.toLowerCase().split(/\s+/).filter(Boolean);

/** Every word of the query must occur somewhere in the agent's searchable text (AND, substring, case-insensitive). */
export function matchesSearch(agent: SearchableAgent, search: DirectorySearch): boolean {
  if (search.presence !== 'any' && agent.presence.status !== search.presence) return false;
  const query = words(search.text);
  if (query.length === 0) return true;
  const haystack = [
    agent.agent_name ?? '',
    agent.agent_description ?? '',
    ...Object.entries(agent.tools).flatMap(([name, tool]) => [name, tool.description]),
  ]
    .join('\n')
    .toLowerCase();
  return query.every((word) => haystack.includes(word));
}

/** The tools of an agent that match the text, so the card can say why it matched. */
export function matchingTools(agent: SearchableAgent, text: string): string[] {
  const query = words(text);
  if (query.length === 0) return [];
  return Object.entries(agent.tools)
    .filter(([name, tool]) => {
      const hay = `${name}\n${tool.description}`.toLowerCase();
      return query.some((word) => hay.includes(word));
    })
    .map(([name]) => name);
}

export const filterDirectory = <T extends SearchableAgent>(agents: readonly T[], search: DirectorySearch): T[] =>
  agents.filter((a) => matchesSearch(a, search));
