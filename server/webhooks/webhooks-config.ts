// WEBHOOKS: endpoints the administrator defines outside the console. Either a JSON array, or the
// path of a file holding one (a value not starting with "[" is a path, read once at start):
//   [{"url":"https://hooks.example/switchboard","secret":"whsec_…","kinds":["review","cosign"]}]
// `events` defaults to both inbox events, `kinds` to every inbox kind. The secret is the
// administrator's (at least 32 characters; `whsec_` + 43 base64url characters as the console
// makes them is a good form), since the receiver must know it too. A bad value is a one-line
// error naming the variable.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { normaliseHttpUrl } from '../http/outbound-url';
import { INBOX_KINDS, InboxKind } from '@shared/contract/inbox';
import {
  MAX_WEBHOOK_ENDPOINTS,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENTS,
  WebhookEventType,
} from '@shared/contract/webhooks';

export interface ConfiguredWebhook {
  readonly url: string;
  readonly secret: string;
  readonly events: readonly string[];
  readonly kinds: readonly string[];
}

export class WebhooksConfigError extends Error {
  override readonly name = 'WebhooksConfigError';
}

const Entry = z.strictObject({
  url: z.string().max(MAX_WEBHOOK_URL_LENGTH),
  // Printable ASCII without spaces: it travels in a .env file and into a receiver's configuration.
  secret: z
    .string()
    .min(32)
    .max(256)
    .regex(/^[!-~]+$/, 'must be printable ASCII without spaces'),
  events: z.array(WebhookEventType).min(1).optional(),
  kinds: z.array(InboxKind).min(1).optional(),
});

/** A receiver's URL (server/http/outbound-url.ts), at most MAX_WEBHOOK_URL_LENGTH long. */
export const normaliseWebhookUrl = (raw: string): string | undefined => normaliseHttpUrl(raw, MAX_WEBHOOK_URL_LENGTH);

/** The same URL keeps the same id at every start, so its outbox survives a restart. */
export const envWebhookId = (url: string): string =>
  `env_${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;

export function parseWebhooks(raw: string | undefined, root = process.cwd()): ConfiguredWebhook[] {
  if (raw === undefined || raw.trim() === '') return [];
  let text = raw.trim();
  if (!text.startsWith('[')) {
    try {
      text = readFileSync(resolve(root, text), 'utf8');
    } catch (error) {
      throw new WebhooksConfigError(
        `WEBHOOKS must be a JSON array or the path of a file holding one; cannot read "${raw.trim().slice(0, 200)}" (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}).`,
      );
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new WebhooksConfigError(`WEBHOOKS is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = z.array(Entry).max(MAX_WEBHOOK_ENDPOINTS).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new WebhooksConfigError(
      `WEBHOOKS: ${issue?.path.length ? `entry ${issue.path.join('.')}` : 'the list'} ${issue?.message ?? 'is invalid'} (each needs url and secret of 32+ characters; events and kinds are optional lists; at most ${MAX_WEBHOOK_ENDPOINTS}).`,
    );
  }
  const seen = new Set<string>();
  return parsed.data.map((entry, i) => {
    const url = normaliseWebhookUrl(entry.url);
    if (!url)
      throw new WebhooksConfigError(
        `WEBHOOKS[${i}]: url must be an http(s) URL without credentials or fragment, got "${entry.url.slice(0, 200)}".`,
      );
    if (seen.has(url)) throw new WebhooksConfigError(`WEBHOOKS[${i}]: ${url} is listed twice.`);
    seen.add(url);
    return {
      url,
      secret: entry.secret,
      events: entry.events ?? [...WEBHOOK_EVENTS],
      kinds: entry.kinds ?? [...INBOX_KINDS],
    };
  });
}
