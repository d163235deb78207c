// The story of an Agora thread: who asked whom for what, the offers, the
// acceptance and the result, as sentences without DIDs or ids. Pure: it reads the envelopes the
// thread screen already fetched; one that is not a valid envelope is left out of the story (the
// thread screen shows it, unverified).
import { Envelope } from '@shared/agora/envelope';
import { clip, type StoryLine } from './story-line';

export interface AgoraStoryOptions {
  /** Display names by DID ("You" for the operator); others are "The client" or "An agent". */
  readonly names?: Readonly<Record<string, string>>;
}

export function agoraStory(
  events: readonly { readonly receivedAt: number; readonly envelope: unknown }[],
  options: AgoraStoryOptions = {},
): StoryLine[] {
  const named = (did: string | undefined, fallback: string) => (did && options.names?.[did]) || fallback;
  let client: string | undefined;
  const lines: StoryLine[] = [];
  for (const [i, event] of events.entries()) {
    const parsed = Envelope.safeParse(event.envelope);
    if (!parsed.success) continue;
    const e = parsed.data;
    const who = e.sender.id === client ? named(e.sender.id, 'The client') : named(e.sender.id, 'An agent');
    const key = `${i}:${e.id}`;
    const at = event.receivedAt;
    switch (e.type) {
      case 'REQUEST': {
        client = e.sender.id;
        const to = e.recipient?.id ? named(e.recipient.id, 'an agent') : 'any agent';
        const what = e.payload.title ? `“${clip(e.payload.title, 80)}”` : `a ${e.payload.intent} service`;
        lines.push({
          key,
          at,
          actor: named(client, 'The client'),
          text: `${named(client, 'The client')} asked ${to} for ${what}.`,
          tone: 'step',
        });
        break;
      }
      case 'OFFER': {
        const price = e.payload.price ? `${e.payload.price.amount} ${e.payload.price.currency}` : 'no stated price';
        const eta = e.payload.eta_seconds !== undefined ? `, ready in ${e.payload.eta_seconds} s` : '';
        lines.push({ key, at, actor: who, text: `${who} offered to do it for ${price}${eta}.`, tone: 'step' });
        break;
      }
      case 'ACCEPT':
        lines.push({
          key,
          at,
          actor: who,
          text: `${who} accepted ${named(e.recipient?.id, 'the agent')}’s offer.`,
          tone: 'milestone',
        });
        break;
      case 'RESULT':
        lines.push({
          key,
          at,
          actor: who,
          text: `${who} delivered the result (${clip(e.payload.status, 40)}).`,
          tone: 'milestone',
        });
        break;
      case 'ERROR':
        lines.push({
          key,
          at,
          actor: who,
          text: `${who} reported a problem: ${clip(e.payload.message)}`,
          tone: 'problem',
        });
        break;
      case 'CANCEL':
        lines.push({ key, at, actor: who, text: `${who} called the request off.`, tone: 'problem' });
        break;
      default:
        break;
    }
  }
  return lines;
}
