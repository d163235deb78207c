// What a webhook carries: an inbox change as one event (id, type, created_at, a readable line and
// the item), serialised once; every endpoint gets these exact bytes. The event id is derived from
// the change itself, so a change seen twice (two instances, a replay after a restart) is the same
// event and the outbox records it once (webhook-store.ts).
import { createHash } from 'node:crypto';
import type { InboxItem } from '@shared/contract/inbox';
import { WEBHOOK_TEST_EVENT, type WebhookBody, type WebhookEventType } from '@shared/contract/webhooks';
import type { InboxChange } from '../inbox/inbox-feed';
import type { WebhookEvent } from '../store/webhook-store';

/**
 * Slack's and Mattermost's `text` reads `<…>` as links and mentions (`<!channel>`): the three
 * characters they name are written as entities, so a title naming an agent cannot ping a channel.
 */
export const escapeForChat = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Text fields never hold U+0000 (decisions-server.md §17), and one line stays one line. */
const oneLine = (text: string, max = 300): string => {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const eventId = (type: string, item: InboxItem): string =>
  `evt_${createHash('sha256').update(`${type}\u0000${item.id}\u0000${item.since}`).digest('base64url').slice(0, 32)}`;

function build(id: string, type: WebhookBody['type'], at: number, text: string, item: InboxItem | null): WebhookEvent {
  const body: WebhookBody = {
    id,
    type,
    created_at: new Date(at).toISOString(),
    text: escapeForChat(oneLine(text)),
    data: { item },
  };
  return {
    id,
    type,
    kind: item?.kind ?? null,
    payload: new TextEncoder().encode(JSON.stringify(body)),
    createdAt: at,
  };
}

/** The event for an inbox change, or undefined for a change no webhook carries (`updated`). */
export function inboxEvent(change: InboxChange, at: number): WebhookEvent | undefined {
  let type: WebhookEventType;
  let text: string;
  switch (change.type) {
    case 'added':
      type = 'inbox.item.added';
      text = `Switchboard: ${change.item.title}`;
      break;
    case 'removed':
      type = 'inbox.item.removed';
      text = `Switchboard: settled${change.settledBy ? ` by ${change.settledBy}` : ''}: ${change.item.title}`;
      break;
    case 'updated':
      return undefined;
    default: {
      const never: never = change;
      return never;
    }
  }
  return build(eventId(type, change.item), type, at, text, change.item);
}

/** A test event for one endpoint; `nonce` makes each one its own event. */
export function testEvent(endpointId: string, at: number, nonce: string): WebhookEvent {
  const id = `evt_test_${createHash('sha256').update(`${endpointId}\u0000${nonce}`).digest('base64url').slice(0, 26)}`;
  return build(id, WEBHOOK_TEST_EVENT, at, 'Switchboard: a test event; this endpoint receives webhooks.', null);
}
