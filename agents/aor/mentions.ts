// How an agent recognises that a `say` is addressed to it. AOR §5.1: a say "may include @agent
// mentions"; the spec gives no grammar, so this is the project's (docs/decisions-demo.md,
// "Mentions").
//
// A mention is "@" + the exact agent id, not glued to a longer word on either side. Ids may hold
// "." (agent.researcher), so a trailing "." counts as punctuation only when no further id
// character follows it: "thanks @agent.researcher." mentions agent.researcher,
// "@agent.researcher.v2" does not.

const WORD = /[\p{L}\p{N}_\-.@]/u;

export function mentionsAgent(text: string, agentId: string): boolean {
  if (typeof text !== 'string' || typeof agentId !== 'string') throw new TypeError('text and agentId must be strings');
  if (agentId.length === 0) return false;
  const needle = `@${agentId}`;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    if (before !== '' && WORD.test(before)) continue;
    if (endsMention(text, at + needle.length)) return true;
  }
  return false;
}

function endsMention(text: string, end: number): boolean {
  let i = end;
  // Sentence dots may follow the id, but only if nothing id-like comes after them.
  while (text[i] === '.') i++;
  const next = text[i];
  return next === undefined || !WORD.test(next);
}

/** The say's text without the mention of `agentId`, trimmed: the answer itself. */
export function withoutMention(text: string, agentId: string): string {
  const needle = `@${agentId}`;
  return text
    .split(needle)
    .join(' ')
    .replace(/^[\s,:;]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}
