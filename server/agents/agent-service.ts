// Acting on agents: their broker credentials, "disconnect now", suspension (decisions-server.md
// §62, §63). One service for the console's routes and the CLI: the store is written first (it is
// what the broker checks), then the broker is told (agent-broker.ts), and every action leaves an
// audit entry. Passwords are answered once and never logged or audited.
import type { AgentEnd } from '@shared/aor/control-envelopes';
import type { AgentAccount, AgentCounts } from '@shared/contract/agents';
import { CodedError } from '@shared/errors';
import { hashAgentPassword } from '../auth/agent-password';
import { generateAgentPassword } from '../auth/password';
import type { Clock } from '../clock';
import type { ActivityRecord, AgentCredential, GrantRecord, Store } from '../store/store';
import { agentAccount } from './agent-accounts';
import type { AgentBroker } from './agent-broker';

const HOUR_MS = 60 * 60_000;

/**
 * Who a room's audit names for grants ended because another process removed the agent: the
 * credential is gone, and with it who removed it (the remover's own entry is in the audit log).
 */
const REMOVED_ELSEWHERE = 'cli';

/** Who acted: a facilitator's did, or `cli`. */
export type Actor = string;

export interface AgentServiceDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly broker: AgentBroker;
  /**
   * Ends a suspended or removed agent's live grants, each with a revoke (the gateway). Absent in
   * the CLI, which has no broker: the server does it when it hears the change
   * (endSuspendedGrants, endRevokedGrants).
   */
  readonly grants?: { endAgentGrants(agentId: string, end: AgentEnd): Promise<GrantRecord[]> };
  /** Where agents have been heard (the presence tracker); absent, no room is known from presence. */
  readonly presence?: {
    roomsOf(agentId: string): readonly { readonly roomId: string; readonly lastSeenAt: number }[];
  };
  /** The gateway's rejects per agent since a time; absent, none are counted. */
  readonly rejectsSince?: (sinceMs: number) => Promise<ReadonlyMap<string, number>>;
}

/** What a page of agents asks: its size (checked by the route), keyset and id prefix. */
export interface AgentPageQuery {
  readonly limit: number;
  readonly after?: string | undefined;
  readonly search?: string | undefined;
}

export interface AgentPage {
  readonly agents: AgentAccount[];
  /** The `after` of the next page; null on the last. */
  readonly next: string | null;
  readonly counts: AgentCounts;
}

const notFound = (agentId: string) =>
  new CodedError('AGENT_NOT_FOUND', `Agent "${agentId.slice(0, 80)}" has no credential.`, { agentId });

export class AgentService {
  readonly #deps: AgentServiceDeps;

  constructor(deps: AgentServiceDeps) {
    this.#deps = deps;
  }

  get broker(): AgentBroker['kind'] {
    return this.#deps.broker.kind;
  }

  /**
   * A page of agents in id order, and how many there are: a fixed number of store reads whatever
   * the page size or the number of agents (decisions-server.md §87).
   */
  async page(query: AgentPageQuery): Promise<AgentPage> {
    const { store, broker } = this.#deps;
    // One more than asked says whether another page follows.
    const [found, stored] = await Promise.all([
      store.access.pageAgentCredentials({
        limit: query.limit + 1,
        ...(query.after === undefined ? {} : { after: query.after }),
        ...(query.search === undefined ? {} : { prefix: query.search }),
      }),
      store.access.countAgentCredentials(),
    ]);
    const credentials = found.slice(0, query.limit);
    const connections = broker.connectionCounts();
    let connected: number | null = null;
    if (connections) {
      connected = 0;
      for (const n of connections.values()) if (n > 0) connected += 1;
    }
    return {
      agents: await this.#accounts(credentials, connections),
      next: found.length > query.limit ? credentials.at(-1)!.agentId : null,
      counts: { ...stored, connected },
    };
  }

  async get(agentId: string): Promise<AgentAccount> {
    const credential = await this.#credential(agentId);
    return (await this.#accounts([credential], null))[0]!;
  }

  async create(agentId: string, actor: Actor): Promise<{ agentId: string; password: string }> {
    const existing = await this.#deps.store.access.getAgentCredential(agentId);
    if (existing)
      throw new CodedError('AGENT_EXISTS', `Agent "${agentId}" already has a credential; rotate it instead.`, {
        agentId,
      });
    return this.#issue(agentId, actor, 'agent.create', false);
  }

  async rotate(agentId: string, actor: Actor): Promise<{ agentId: string; password: string }> {
    const credential = await this.#credential(agentId);
    const issued = await this.#issue(agentId, actor, 'agent.rotate', credential.suspended !== null);
    await this.#deps.broker.closeConnections(agentId, credential.suspended !== null);
    return issued;
  }

  /** Forgets the credential and ends the agent's live grants, as a suspension does (decisions-server.md §72). */
  async remove(agentId: string, actor: Actor): Promise<void> {
    const inStore = await this.#deps.store.access.removeAgentCredential(agentId);
    // Grants end before the connections close, so a connected agent may still read why.
    if (inStore) await this.#endGrantsOf(agentId, { kind: 'removed' }, actor);
    const onBroker = await this.#deps.broker.removed(agentId);
    if (!inStore && !onBroker) throw notFound(agentId);
    await this.#audit(actor, 'agent.remove', { agentId });
  }

  /** Closes the agent's open connections; answers how many (null: the broker cannot say). */
  async disconnect(agentId: string, actor: Actor): Promise<number | null> {
    const before = this.#deps.broker.connections(agentId);
    if (!(await this.#deps.store.access.markAgentDisconnected(agentId, this.#deps.clock.now())))
      throw notFound(agentId);
    const credential = await this.#credential(agentId);
    await this.#deps.broker.closeConnections(agentId, credential.suspended !== null);
    await this.#audit(actor, 'agent.disconnect', { agentId, connections: before });
    return before;
  }

  /** Suspends (again: with the new reason) and ends the agent's live grants; answers how many ended. */
  async suspend(agentId: string, reason: string, actor: Actor): Promise<{ agent: AgentAccount; grantsEnded: number }> {
    const suspension = { at: this.#deps.clock.now(), by: actor, reason };
    if (!(await this.#deps.store.access.setAgentSuspension(agentId, suspension))) throw notFound(agentId);
    await this.#audit(actor, 'agent.suspend', { agentId, reason });
    // Grants end before the connections close, so a connected agent may still read why.
    const grantsEnded = await this.#endGrantsOf(agentId, { kind: 'suspended', why: reason }, actor);
    await this.#deps.broker.suspended(agentId, true);
    return { agent: await this.get(agentId), grantsEnded };
  }

  async resume(agentId: string, actor: Actor): Promise<AgentAccount> {
    const before = await this.#deps.store.access.getAgentCredential(agentId);
    if (!(await this.#deps.store.access.setAgentSuspension(agentId, null))) throw notFound(agentId);
    await this.#deps.broker.suspended(agentId, false);
    // The suspension it lifted stays readable after the resume (decisions-server.md §83).
    await this.#audit(actor, 'agent.resume', { agentId, ...(before?.suspended ? { lifted: before.suspended } : {}) });
    return this.get(agentId);
  }

  /**
   * Ends the live grants of every suspended agent: run when another process (the CLI, another
   * instance) may have suspended one. Answers how many grants ended here.
   */
  async endSuspendedGrants(): Promise<number> {
    let ended = 0;
    for (const credential of await this.#deps.store.access.listAgentCredentials())
      if (credential.suspended) ended += await this.#endSuspension(credential.agentId, credential.suspended);
    return ended;
  }

  /**
   * Before the broker closes a connection whose credential another process revoked: a suspended
   * or removed agent's grants end first, so the agent reads its own revoke (decisions-server.md
   * §72). A rotation or "disconnect now" ends no grant.
   */
  async endRevokedGrants(agentId: string): Promise<number> {
    const credential = await this.#deps.store.access.getAgentCredential(agentId);
    if (!credential) return this.#endGrantsOf(agentId, { kind: 'removed' }, REMOVED_ELSEWHERE);
    return credential.suspended ? this.#endSuspension(agentId, credential.suspended) : 0;
  }

  #endSuspension(agentId: string, suspension: NonNullable<AgentCredential['suspended']>): Promise<number> {
    return this.#endGrantsOf(agentId, { kind: 'suspended', why: suspension.reason }, suspension.by);
  }

  /** One audit entry per room whose grants this ended, so the room's audit page shows it. */
  async #endGrantsOf(agentId: string, end: AgentEnd, actor: Actor): Promise<number> {
    const ended = (await this.#deps.grants?.endAgentGrants(agentId, end)) ?? [];
    const byRoom = new Map<string, string[]>();
    for (const grant of ended) byRoom.set(grant.roomId, [...(byRoom.get(grant.roomId) ?? []), grant.taskId]);
    for (const [roomId, taskIds] of byRoom)
      await this.#audit(
        actor,
        end.kind === 'suspended' ? 'agent.suspend' : 'agent.remove',
        { agentId, ...(end.kind === 'suspended' ? { reason: end.why } : {}), grantsEnded: taskIds },
        roomId,
      );
    return ended.length;
  }

  async #issue(agentId: string, actor: Actor, action: string, suspended: boolean) {
    const password = generateAgentPassword();
    // The broker first: a credential in the store that the broker refuses would mislead.
    await this.#deps.broker.provision(agentId, password, suspended);
    await this.#deps.store.access.putAgentCredential({
      agentId,
      passwordHash: await hashAgentPassword(password),
      createdAt: this.#deps.clock.now(),
    });
    await this.#audit(actor, action, { agentId });
    return { agentId, password };
  }

  async #credential(agentId: string): Promise<AgentCredential> {
    const credential = await this.#deps.store.access.getAgentCredential(agentId);
    if (!credential) throw notFound(agentId);
    return credential;
  }

  /**
   * The accounts of these credentials, each part read once for all of them: live grants, rejects,
   * newest actions, then the operators they name. `connections`: the broker's counts for every
   * agent at once; null asks the broker per agent (one agent).
   */
  async #accounts(
    credentials: readonly AgentCredential[],
    connections: ReadonlyMap<string, number> | null,
  ): Promise<AgentAccount[]> {
    if (credentials.length === 0) return [];
    const { store, clock, broker, presence, rejectsSince } = this.#deps;
    const [grants, rejects, actions] = await Promise.all([
      store.rooms.listGrants({ active: true }),
      rejectsSince ? rejectsSince(clock.now() - HOUR_MS) : new Map<string, number>(),
      store.access.lastAgentActivity(credentials.map((c) => c.agentId)),
    ]);
    const grantsOf = new Map<string, GrantRecord[]>();
    for (const grant of grants) grantsOf.set(grant.agentId, [...(grantsOf.get(grant.agentId) ?? []), grant]);
    const lastOf = new Map(actions.map((action) => [action.target, action] as const));
    const dids = new Set<string>();
    for (const credential of credentials) if (credential.suspended) dids.add(credential.suspended.by);
    for (const action of actions) {
      dids.add(action.actorDid);
      const lifted = liftedBy(action);
      if (lifted) dids.add(lifted.by);
    }
    // `cli` and other actors that are no did are nobody's name.
    const named = [...dids].filter((did) => did.startsWith('did:'));
    const operators = named.length > 0 ? await store.access.getOperators(named) : [];
    const names = new Map(operators.map((o) => [o.did, o.name ?? null] as const));
    const nameOf = (did: string) => names.get(did) ?? null;
    return credentials.map((credential) =>
      agentAccount(credential, {
        connections: connections ? (connections.get(credential.agentId) ?? 0) : broker.connections(credential.agentId),
        heard: presence?.roomsOf(credential.agentId) ?? [],
        grants: grantsOf.get(credential.agentId) ?? [],
        rejectsLastHour: rejects.get(credential.agentId) ?? 0,
        suspendedByName: credential.suspended ? nameOf(credential.suspended.by) : null,
        lastAction: lastAction(lastOf.get(credential.agentId), nameOf),
      }),
    );
  }

  async #audit(actor: Actor, action: string, details: Record<string, unknown>, roomId: string | null = null) {
    await this.#deps.store.access.appendAudit({
      at: this.#deps.clock.now(),
      actorDid: actor,
      action,
      roomId,
      messageId: null,
      details,
    });
  }
}

/** The suspension an agent.resume lifted, as its entry keeps it (decisions-server.md §83). */
function liftedBy(action: ActivityRecord): { at: number; by: string; reason: string } | null {
  const lifted = action.details.lifted as { at?: unknown; by?: unknown; reason?: unknown } | undefined;
  return lifted && typeof lifted.at === 'number' && typeof lifted.by === 'string' && typeof lifted.reason === 'string'
    ? { at: lifted.at, by: lifted.by, reason: lifted.reason }
    : null;
}

function lastAction(
  last: ActivityRecord | undefined,
  nameOf: (did: string) => string | null,
): AgentAccount['lastAction'] {
  if (!last) return null;
  const lifted = liftedBy(last);
  return {
    id: last.id,
    action: last.action,
    at: last.at,
    by: last.actorDid,
    byName: nameOf(last.actorDid),
    lifted: lifted && { ...lifted, byName: nameOf(lifted.by) },
  };
}
