// The server's words for each kind of inbox item. Agent-written text never goes into a title
// (it goes in `quote`); the names here are ids an operator created or the protocol fixed.
import { shortDid } from '../contract/operator-name';
import { messageTypeWords } from '../aor/message-type-words';
import { REJECT_WINDOW_MS } from './rules';

// One short form of a did for the whole console (`did:key:z6Mk…abc123`), so a title and a name agree.
export { shortDid };

const minutes = (ms: number) => Math.round(ms / 60_000);

function duration(ms: number): string {
  if (ms < 60_000) return `${Math.max(1, Math.ceil(ms / 1000))} s`;
  return `${Math.ceil(ms / 60_000)} min`;
}

/** A task's goal in a title: its first eight words on one line (an operator wrote it). */
function goalWords(goal: string | null | undefined): string | undefined {
  const words = (goal ?? '').split(/\s+/u).filter(Boolean);
  if (words.length === 0) return undefined;
  return words.length <= 8 ? words.join(' ') : `${words.slice(0, 8).join(' ')}…`;
}

/** "agent.analyst's finding on “Compare three APIs” waits for review in ops" (decisions-web.md §32). */
export function reviewTitle(agentId: string, room: string, messageType?: string | null, goal?: string | null): string {
  const on = goalWords(goal);
  return `${agentId}'s ${messageTypeWords(messageType)}${on ? ` on “${on}”` : ''} waits for review in ${room}`;
}

/** The counterparty by its directory name when it has one, else its short did. */
export const cosignTitle = (category: string, counterparty: string, name?: string | null) =>
  `The ${category} agreement with ${name || shortDid(counterparty)} waits for your co-signature`;

export const slotTitle = (answers: number) =>
  `A meeting waits for slot approval: ${answers} ${answers === 1 ? 'answer is' : 'answers are'} in`;

export const questionTitle = (agentId: string, room: string) => `${agentId} asks a clarifying question in ${room}`;

export function grantTitle(
  agentId: string,
  room: string,
  attention: { readonly reason: 'time' | 'budget'; readonly msLeft: number; readonly budgetLeft: number },
): string {
  return attention.reason === 'time'
    ? `${agentId}'s grant in ${room} ends in ${duration(attention.msLeft)}`
    : `${agentId}'s grant in ${room} has ${attention.budgetLeft} ${attention.budgetLeft === 1 ? 'message' : 'messages'} left`;
}

export const rejectsTitle = (agentId: string, count: number, room: string) =>
  `${agentId}: ${count} rejects in ${minutes(REJECT_WINDOW_MS)} minutes in ${room}`;

export const serviceTitle = (name: string) => `${name} is down`;
