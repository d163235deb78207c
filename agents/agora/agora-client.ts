// A small Agora client over HTTP, as any agent would write one: sign with its own key (Agora
// "Signing Process", through shared/agora), POST /events, long-poll GET /events with a cursor.
// `fetch` is injected: global fetch against the running server, or app.request in tests.
import type { MessageType, UnsignedEnvelopeOf, Envelope } from '@shared/agora/envelope';
import { signEnvelope } from '@shared/agora/sign-envelope';
import type { UnsignedEnvelope } from '@shared/agora/envelope';
import type { AgentIdentity } from '../identity';

export type FetchLike = (input: string, init?: RequestInit) => Response | Promise<Response>;

export type AgoraIdentity = AgentIdentity;

export interface PollAnswer {
  readonly events: readonly Envelope[];
  readonly cursor: string;
  readonly hasMore: boolean;
}

export class AgoraClient {
  constructor(
    readonly identity: AgoraIdentity,
    private readonly fetch: FetchLike,
    private readonly baseUrl: string,
    private readonly now: () => number,
    private readonly newId: () => string,
  ) {}

  sign<T extends MessageType>(
    type: T,
    payload: UnsignedEnvelopeOf<T>['payload'],
    thread: string,
    to?: string,
  ): Envelope {
    const unsigned = {
      version: '1.0',
      id: `msg_${this.newId()}`,
      ts: new Date(this.now()).toISOString(),
      type,
      sender: { id: this.identity.did, name: this.identity.name },
      ...(to === undefined ? {} : { recipient: { id: to } }),
      payload,
      thread: { id: thread },
      meta: { ttl: 300, hop: 0 },
    } as unknown as UnsignedEnvelope;
    return signEnvelope(unsigned, this.identity.secretKey);
  }

  /** Posts to /events (or another path); throws with the relay's coded answer when refused. */
  async post(envelope: Envelope, path = '/events'): Promise<{ ok: true; id: string }> {
    const res = await this.fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(envelope),
    });
    const body = (await res.json()) as {
      ok?: boolean;
      id: string;
      code?: string;
      message?: string;
      details?: { reason?: string };
    };
    if (!res.ok || body.ok !== true)
      throw Object.assign(new Error(`${body.code}: ${body.message}`), {
        code: body.code,
        reason: body.details?.reason,
      });
    return { ok: true, id: body.id };
  }

  async poll(
    since: string,
    timeoutSeconds: number,
    filters: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<PollAnswer> {
    const query = new URLSearchParams({ since, timeout: String(timeoutSeconds), ...filters });
    const res = await this.fetch(`${this.baseUrl}/events?${query}`, signal ? { signal } : {});
    const body = (await res.json()) as PollAnswer & { ok: boolean; code?: string; message?: string };
    if (!res.ok || !body.ok) throw new Error(`${body.code}: ${body.message}`);
    return body;
  }
}
