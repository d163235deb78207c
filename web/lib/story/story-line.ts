// One line of a story view: a plain-language sentence about one step, with the
// time it happened. `text` may hold agent-written words; it is always rendered as text.
export interface StoryLine {
  /** Stable within one story (React key, scroll-follow). */
  readonly key: string;
  /** Milliseconds since the epoch. */
  readonly at: number;
  /** Who acted, already a display name (never a raw id). */
  readonly actor: string;
  readonly text: string;
  /** How the view marks it: a milestone is where the story turns (a result, an agreement, a booking). */
  readonly tone: 'step' | 'milestone' | 'problem';
}

/** "1 option", "3 options". */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Cuts agent-written text to a presentable length on a word boundary. */
export function clip(text: string, max = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/**
 * A display name for an AOR agent id, hiding the id: `agent.researcher` → "Researcher",
 * `agent.data-cleaner` → "Data cleaner". Known names win.
 */
export function agentName(id: string, known: Readonly<Record<string, string>> = {}): string {
  const name = known[id];
  if (name) return name;
  const last = id.split('.').filter(Boolean).pop() ?? id;
  const words = last.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'An agent';
}
