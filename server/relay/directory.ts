// The agent directory: capability manifests registered by signed envelope,
// served as OSNAP §3.3 entries with presence, filtered by capability, scope and who asks.
// The caller is always authenticated (a verified envelope or an operator session), never taken
// from a parameter (decisions-osnap.md §7).
import { readRegistration } from '@shared/agora/directory-registration';
import { directoryEntry } from '@shared/agora/directory-registration';
import type { CapabilityManifest } from '@shared/agora/capability-manifest';
import { agoraError } from '@shared/agora/reject-reasons';
import type { AgoraError } from '@shared/agora/reject-reasons';
import type { AgentEntry } from '@shared/osnap/agent-entry';
import { filterAgents, isVisibleTo } from '@shared/osnap/filter-agents';
import type { AgentsFilter } from '@shared/osnap/filter-agents';
import type { OsnapMessageOf } from '@shared/osnap/message';
import { answerToolsQuery } from '@shared/osnap/tools-response';
import { ok } from '@shared/errors';
import type { Result } from '@shared/errors';
import type { DirectoryRecord } from '../store/relay-store';
import type { AgoraRelay, Verified } from './agora-relay';
import { toRecord } from './agora-relay';

/** Relay activity this recent counts as online (one default meta.ttl). */
export const RELAY_ONLINE_MS = 5 * 60_000;

export interface PresenceSource {
  agentStatus(
    agentId: string,
  ): { readonly status: 'online' | 'stale' | 'offline'; readonly lastSeenAt: number } | undefined;
}

/**
 * Which DID the console itself bound an AOR agent id to (a credential it issued for that DID).
 * Only such a link makes a registration's `aor_agent_id` the same agent (decisions-agora.md §40).
 */
export interface AorLinkSource {
  linkedDid(aorAgentId: string): string | undefined;
}

/** Our extension: the AOR agent a registration names, and whether the console vouches for it. */
export interface AorAgentClaim {
  readonly agent_id: string;
  readonly verified: boolean;
}

/** Our extension of an OSNAP entry: where the presence shown comes from. */
export interface DirectoryPresence {
  readonly status: 'online' | 'stale' | 'offline' | 'unknown';
  readonly last_seen_at: string | null;
  /** An AOR heartbeat (rooms), a signed relay event, or a long-poll waiting for it now. */
  readonly sources: readonly ('aor' | 'relay' | 'listening')[];
}

export type DirectoryEntry = AgentEntry & {
  readonly presence: DirectoryPresence;
  readonly registered_at: string;
  readonly aor_agent?: AorAgentClaim;
};

export interface RegisterResult {
  readonly did: string;
  readonly id: string;
  /** `duplicate`: this exact envelope was registered before (idempotent). */
  readonly outcome: 'stored' | 'duplicate';
}

export class Directory {
  constructor(
    private readonly relay: AgoraRelay,
    private readonly presence?: PresenceSource,
    private readonly aorLinks?: AorLinkSource,
  ) {}

  /**
   * Stores a registration (POST /agents, or POST /events with the register intent) that
   * AgoraRelay.verify already accepted; the routes spend its budgets in between.
   */
  async registerVerified(verified: Verified): Promise<Result<RegisterResult, AgoraError>> {
    const { envelope, digest, expiresAt, json } = verified;
    const registration = readRegistration(envelope);
    if (!registration.ok) return registration;
    const r = registration.value;
    const record: DirectoryRecord = {
      did: r.did,
      manifest: r.manifest,
      scope: r.scope,
      authorizedAgents: r.authorized_agents ?? [],
      aorAgentId: r.aor_agent_id ?? null,
      endpoint: envelope.sender.url ?? null,
      registeredAt: r.registeredAt,
      envelopeId: envelope.id,
    };
    const outcome = await this.relay.store.register(
      toRecord(envelope, 'registration', digest, this.relay.now(), expiresAt, json),
      record,
    );
    switch (outcome) {
      case 'stored':
      case 'duplicate':
        // Registrations take a seq too; the feed must know, or it would read the gap as another instance.
        if (outcome === 'stored') this.relay.feed.noticeOwn(await this.relay.store.headSeq());
        return ok({ did: r.did, id: envelope.id, outcome });
      case 'stale':
        return {
          ok: false,
          error: agoraError('manifest_stale', 'A newer registration of this agent is already in the directory.', {
            did: r.did,
          }),
        };
      case 'id_conflict':
        return {
          ok: false,
          error: agoraError('id_conflict', `Message id ${envelope.id} was already used for a different envelope.`, {
            id: envelope.id,
          }),
        };
      default:
        throw new TypeError('unknown register outcome');
    }
  }

  /** GET /agents: the entries `caller` may see, with presence; sorted by name, then DID. */
  async list(filter: AgentsFilter): Promise<DirectoryEntry[]> {
    const records = await this.relay.store.listRegistrations();
    const byDid = new Map(records.map((record) => [record.did, record]));
    const visible = filterAgents(records.map(toEntry), filter);
    const lastEvents = await this.relay.store.lastEventAt(visible.map((entry) => entry.agent_id));
    return visible
      .map((entry) => {
        const record = byDid.get(entry.agent_id)!;
        const aor =
          record.aorAgentId === null
            ? undefined
            : { agent_id: record.aorAgentId, verified: this.aorLinks?.linkedDid(record.aorAgentId) === record.did };
        return {
          ...entry,
          presence: this.#presence(record, lastEvents.get(record.did), aor),
          registered_at: new Date(record.registeredAt).toISOString(),
          ...(aor ? { aor_agent: aor } : {}),
        };
      })
      .sort((a, b) => (a.agent_name ?? '').localeCompare(b.agent_name ?? '') || a.agent_id.localeCompare(b.agent_id));
  }

  /** One agent's entry as `caller` may see it (GET /agents lists it for them); undefined otherwise. */
  async entry(did: string, caller: string | undefined): Promise<AgentEntry | undefined> {
    const record = await this.relay.store.getRegistration(did);
    if (!record) return undefined;
    const entry = toEntry(record);
    return isVisibleTo(entry, caller) ? entry : undefined;
  }

  /** OSNAP §3.4 on an agent's behalf; undefined for an unknown agent or one the asker may not see. */
  async tools(query: OsnapMessageOf<'tools_query'>): Promise<OsnapMessageOf<'tools_response'> | undefined> {
    const record = await this.relay.store.getRegistration(query.receiver_agent_id);
    return record && answerToolsQuery(query, toEntry(record), this.relay.now());
  }

  #presence(
    record: DirectoryRecord,
    lastEventAt: number | undefined,
    claim: AorAgentClaim | undefined,
  ): DirectoryPresence {
    const now = this.relay.now();
    // A self-asserted aor_agent_id would let any agent wear another's heartbeats: only a link the console made counts.
    const aor = claim?.verified ? this.presence?.agentStatus(claim.agent_id) : undefined;
    const listening = this.relay.feed.isListening(record.did);
    const relayOnline = lastEventAt !== undefined && now - lastEventAt <= RELAY_ONLINE_MS;
    const sources: DirectoryPresence['sources'][number][] = [];
    if (aor) sources.push('aor');
    if (lastEventAt !== undefined) sources.push('relay');
    if (listening) sources.push('listening');
    const lastSeen = Math.max(aor?.lastSeenAt ?? -Infinity, lastEventAt ?? -Infinity, listening ? now : -Infinity);
    const status: DirectoryPresence['status'] =
      aor?.status === 'online' || listening || relayOnline
        ? 'online'
        : aor?.status === 'stale'
          ? 'stale'
          : sources.length > 0
            ? 'offline'
            : 'unknown';
    return { status, last_seen_at: Number.isFinite(lastSeen) ? new Date(lastSeen).toISOString() : null, sources };
  }
}

export function toEntry(record: DirectoryRecord): AgentEntry {
  return directoryEntry(
    {
      did: record.did,
      scope: record.scope,
      authorized_agents: [...record.authorizedAgents] as `did:key:z${string}`[],
      manifest: record.manifest as CapabilityManifest,
    },
    record.endpoint ?? undefined,
  );
}
