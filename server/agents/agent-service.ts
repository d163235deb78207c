// Acting on agents: their broker credentials, "disconnect now", suspension (decisions-server.md
// §62, §63). One service for the console's routes and the CLI: the store is written first (it is
// what the broker checks), then the broker is told (agent-broker.ts), and every action leaves an
// audit entry. Passwords are answered once and never logged or audited.
import type { AgentEnd } from '@shared/aor/control-envelopes';
import type { AgentAccount } from '@shared/contract/agents';
import { CodedError } from '@shared/errors';
import { hashAgentPassword } from '../auth/agent-password';
import { generateAgentPassword } from '../auth/password';
import type { Clock } from '../clock';
import type { AgentCredential, GrantRecord, Store } from '../store/store';
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

  async list(): Promise<AgentAccount[]> {
    const credentials = await this.#deps.store.access.listAgentCredentials();
    return this.#accounts(credentials);
  }

  async get(agentId: string): Promise<AgentAccount> {
    const credential = await this.#credential(agentId);
    return (await this.#accounts([credential]))[0]!;
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

  async #accounts(credentials: readonly AgentCredential[]): Promise<AgentAccount[]> {
    const { store, clock, broker, presence, rejectsSince } = this.#deps;
    const grants = credentials.length > 0 ? await store.rooms.listGrants({ active: true }) : [];
    const rejects = rejectsSince && credentials.length > 0 ? await rejectsSince(clock.now() - HOUR_MS) : new Map();
    const counts = credentials.length > 1 ? broker.connectionCounts() : null;
    const grantsOf = new Map<string, GrantRecord[]>();
    for (const grant of grants) grantsOf.set(grant.agentId, [...(grantsOf.get(grant.agentId) ?? []), grant]);
    const names = new Map<string, Promise<string | null>>();
    const nameOf = (did: string): Promise<string | null> => {
      if (!did.startsWith('did:')) return Promise.resolve(null);
      let name = names.get(did);
      if (!name) names.set(did, (name = store.access.getOperator(did).then((o) => o?.name ?? null)));
      return name;
    };
    return Promise.all(
      credentials.map(async (credential) =>
        agentAccount(credential, {
          connections: counts ? (counts.get(credential.agentId) ?? 0) : broker.connections(credential.agentId),
          heard: presence?.roomsOf(credential.agentId) ?? [],
          grants: grantsOf.get(credential.agentId) ?? [],
          rejectsLastHour: rejects.get(credential.agentId) ?? 0,
          suspendedByName: credential.suspended ? await nameOf(credential.suspended.by) : null,
          lastAction: await this.#lastAction(credential.agentId, nameOf),
        }),
      ),
    );
  }

  /** One index probe per agent (audit_log_by_target), plus the suspension a resume lifted. */
  async #lastAction(
    agentId: string,
    nameOf: (did: string) => Promise<string | null>,
  ): Promise<AgentAccount['lastAction']> {
    const [last] = await this.#deps.store.access.listActivity({ target: agentId, kind: 'agent', limit: 1 });
    if (!last) return null;
    const lifted = last.details.lifted as { at?: unknown; by?: unknown; reason?: unknown } | undefined;
    return {
      id: last.id,
      action: last.action,
      at: last.at,
      by: last.actorDid,
      byName: await nameOf(last.actorDid),
      lifted:
        lifted && typeof lifted.at === 'number' && typeof lifted.by === 'string' && typeof lifted.reason === 'string'
          ? { at: lifted.at, by: lifted.by, byName: await nameOf(lifted.by), reason: lifted.reason }
          : null,
    };
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
