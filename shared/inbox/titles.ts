// The server's words for each kind of inbox item. Agent-written text never goes into a title
// (it goes in `quote`); the names here are ids an operator created or the protocol fixed.
import { REJECT_WINDOW_MS } from './rules';

/** `did:key:z6MkpTHR…vktH`: enough of a did:key to tell two apart in a sentence; other ids whole. */
export function shortDid(did: string): string {
  const prefix = 'did:key:';
  if (!did.startsWith(prefix)) return did;
  const key = did.slice(prefix.length);
  return key.length <= 16 ? did : `${prefix}${key.slice(0, 8)}…${key.slice(-4)}`;
}

const minutes = (ms: number) => Math.round(ms / 60_000);

function duration(ms: number): string {
  if (ms < 60_000) return `${Math.max(1, Math.ceil(ms / 1000))} s`;
  return `${Math.ceil(ms / 60_000)} min`;
}

export const reviewTitle = (agentId: string, room: string) => `${agentId}'s result waits for review in ${room}`;

export const cosignTitle = (category: string, counterparty: string) =>
  `The ${category} agreement with ${shortDid(counterparty)} waits for your co-signature`;

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
