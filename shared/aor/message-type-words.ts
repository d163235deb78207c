// A result's AOR §6 `message_type` as people say it (decisions-web.md §32): the inbox, the review
// queue, webhook texts and the timeline's badge all use these words; the protocol's word stays in
// a tooltip and the inspector.
import { MESSAGE_TYPES, type MessageType } from './payloads';

export const MESSAGE_TYPE_WORDS: Readonly<Record<MessageType, string>> = {
  ack: 'acknowledgement', // §6.1
  clarifying_question: 'question', // §6.2
  progress: 'progress note', // §6.3
  finding: 'finding', // §6.4
  risk: 'risk', // §6.5
  result: 'result', // §6.6
  artifact_link: 'artifact', // §6.7
};

const isMessageType = (t: string): t is MessageType => (MESSAGE_TYPES as readonly string[]).includes(t);

/** The words for a message type; an unknown one as "message", never the raw string of an agent. */
export function messageTypeWords(type: string | null | undefined): string {
  return type && isMessageType(type) ? MESSAGE_TYPE_WORDS[type] : 'message';
}

/** "an acknowledgement", "a finding": the article that goes with the words. */
export function aMessageType(type: string | null | undefined): string {
  const words = messageTypeWords(type);
  return `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words}`;
}
