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

/** An imported A2A agent as the search reads it: its card's name, description and skills. */
export interface SearchableCard {
  readonly card: {
    readonly name: string;
    readonly description: string;
    readonly skills: readonly {
      readonly name: string;
      readonly description: string;
      readonly tags: readonly string[];
    }[];
  };
}

/** The same search over an imported agent's card; presence does not apply (it has none here). */
export function matchesCard(agent: SearchableCard, text: string): boolean {
  const query = words(text);
  if (query.length === 0) return true;
  const haystack = [
    agent.card.name,
    agent.card.description,
    ...agent.card.skills.flatMap((s) => [s.name, s.description, ...s.tags]),
  ]
    .join('\n')
    .toLowerCase();
  return query.every((word) => haystack.includes(word));
}
