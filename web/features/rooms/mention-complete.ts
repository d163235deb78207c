// `@agent` completion for the say box (AOR §5.1: a say "may include @agent mentions"). Pure, so
// the rules are tested without a DOM. A mention is "@" + the exact agent id, as the agent client
// reads it (agents/aor/mentions.ts, docs/decisions-demo.md "Mentions").

/** The characters an agent id may hold inside a mention being typed. */
const ID_CHAR = /[^\s@,;:()[\]{}<>"'`]/u;
const ID_RUN = /^[^\s@,;:()[\]{}<>"'`]*/u;

export interface MentionQuery {
  /** Index of the "@". */
  readonly start: number;
  /** What follows the "@" up to the caret. */
  readonly query: string;
}

/** The mention being typed at `caret`, if the caret ends one: "@" at the start or after a space. */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  let i = caret;
  while (i > 0 && ID_CHAR.test(text[i - 1]!)) i--;
  if (i === 0 || text[i - 1] !== '@') return null;
  const start = i - 1;
  if (start > 0 && !/\s/u.test(text[start - 1]!)) return null;
  return { start, query: text.slice(i, caret) };
}

/** Agent ids that fit the query: those that start with it first, then those that contain it. */
export function matchAgents(agents: readonly string[], query: string, limit = 8): string[] {
  const q = query.toLowerCase();
  const starts = agents.filter((a) => a.toLowerCase().startsWith(q));
  const contains = agents.filter((a) => !a.toLowerCase().startsWith(q) && a.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, limit);
}

/** Replaces the mention at `at` with "@agentId " and says where the caret goes. */
export function completeMention(
  text: string,
  caret: number,
  at: MentionQuery,
  agentId: string,
): { text: string; caret: number } {
  // The rest of a half-typed id goes; punctuation and what follows stay.
  const after = text.slice(caret).replace(ID_RUN, '');
  const mention = `@${agentId}`;
  if (after === '') return { text: `${text.slice(0, at.start)}${mention} `, caret: at.start + mention.length + 1 };
  const next = text.slice(0, at.start) + mention + after;
  return { text: next, caret: at.start + mention.length + (/^\s/u.test(after) ? 1 : 0) };
}
