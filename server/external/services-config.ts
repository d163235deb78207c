// EXTERNAL_SERVICES: the external relays and negotiation services the console bridges from its
// start. Either JSON,
//   [{"name":"Acme relay","url":"https://relay.acme.example","kind":"relay","readOnly":true}]
// or the compact form, entries separated by ";", fields by "|": kind|name|url[|ro]
//   relay|Acme relay|https://relay.acme.example|ro;negotiation|Acme deals|https://deals.acme.example
// A bad value is a one-line ConfigError naming the variable.
import { z } from 'zod';
import type { ServiceKind } from '../store/service-registry-store';
import { ServiceInput } from '@shared/contract/console';

export interface ConfiguredService {
  readonly name: string;
  readonly baseUrl: string;
  readonly kind: ServiceKind;
  readonly readOnly: boolean;
}

export class ServicesConfigError extends Error {
  override readonly name = 'ServicesConfigError';
}

/** http(s) only, no credentials, no query or fragment; the trailing slash is dropped. */
export function normaliseBaseUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  return url.toString().replace(/\/+$/, '');
}

function fromInput(input: z.infer<typeof ServiceInput>, where: string): ConfiguredService {
  const baseUrl = normaliseBaseUrl(input.url);
  if (!baseUrl)
    throw new ServicesConfigError(
      `${where}: url must be an http(s) URL without credentials, query or fragment, got "${input.url}".`,
    );
  return { name: input.name, baseUrl, kind: input.kind, readOnly: input.readOnly ?? false };
}

export function parseExternalServices(raw: string | undefined): ConfiguredService[] {
  if (raw === undefined || raw.trim() === '') return [];
  const text = raw.trim();
  let services: ConfiguredService[];
  if (text.startsWith('[')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ServicesConfigError(`EXTERNAL_SERVICES is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = z.array(ServiceInput).safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ServicesConfigError(
        `EXTERNAL_SERVICES: entry ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is invalid'} (each needs name, url, kind relay|negotiation, readOnly?).`,
      );
    }
    services = parsed.data.map((s, i) => fromInput(s, `EXTERNAL_SERVICES[${i}]`));
  } else {
    services = text
      .split(';')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry, i) => {
        const [kind, name, url, flag, ...rest] = entry.split('|').map((f) => f.trim());
        if (rest.length > 0 || (flag !== undefined && flag !== 'ro' && flag !== '')) {
          throw new ServicesConfigError(`EXTERNAL_SERVICES entry ${i + 1} must be kind|name|url[|ro], got "${entry}".`);
        }
        const parsed = ServiceInput.safeParse({ kind, name, url: url ?? '', readOnly: flag === 'ro' });
        if (!parsed.success)
          throw new ServicesConfigError(
            `EXTERNAL_SERVICES entry ${i + 1} must be kind|name|url[|ro] with kind relay or negotiation, got "${entry}".`,
          );
        return fromInput(parsed.data, `EXTERNAL_SERVICES entry ${i + 1}`);
      });
  }
  const ids = new Set<string>();
  for (const s of services) {
    const id = envServiceId(s);
    if (ids.has(id)) throw new ServicesConfigError(`EXTERNAL_SERVICES names "${s.name}" (${s.kind}) twice.`);
    ids.add(id);
  }
  return services;
}

/** Env entries keep their id across restarts (so their cursors do): kind plus the name's slug. */
export function envServiceId(s: Pick<ConfiguredService, 'kind' | 'name'>): string {
  const slug =
    s.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'service';
  return `env-${s.kind}-${slug}`;
}
