// Provisioning an external Mosquitto 2 through its dynamic-security plugin: the ACL table of
// dynsec-acls.ts written as one role per agent, the server's own client and role, and the default
// ACL access, over the plugin's command channel (dynsec-channel.ts). Every operation is
// idempotent, and every failure is a CodedError.
import { isValidId } from '@shared/aor/ids';
import { CodedError } from '@shared/errors';
import {
  agentAcls,
  agentRoleName,
  DEFAULT_ACL_ACCESS,
  DEFAULT_SERVER_CLIENT_ID,
  DEFAULT_SERVER_USERNAME,
  SERVER_ACLS,
  SERVER_ROLE,
  sameAcl,
  type DynsecAcl,
} from './dynsec-acls';
import { DynsecChannel, type DynsecCommand, type DynsecConnection, type DynsecResponse } from './dynsec-channel';

const AGENT_TEXT_NAME = 'Switchboard agent';
const SERVER_TEXT_NAME = 'Switchboard server (BFF and gateway)';

interface ClientInfo {
  readonly username: string;
  readonly textname?: string;
  readonly roles: readonly { rolename: string }[];
  readonly groups: readonly { groupname: string }[];
}

/** Made by Switchboard: no groups, no role but ours, and ours or at least our description. */
const isManaged = (client: ClientInfo, rolename: string, textname: string) =>
  client.groups.length === 0 &&
  client.roles.every((r) => r.rolename === rolename) &&
  (client.roles.length > 0 || client.textname === textname);

export class DynsecAdmin {
  readonly #channel: DynsecChannel;
  readonly #reserved: ReadonlySet<string>;

  private constructor(channel: DynsecChannel, options: DynsecConnection) {
    this.#channel = channel;
    this.#reserved = new Set([options.username, ...(options.reservedUsernames ?? [DEFAULT_SERVER_USERNAME])]);
  }

  static async connect(options: DynsecConnection): Promise<DynsecAdmin> {
    return new DynsecAdmin(await DynsecChannel.connect(options), options);
  }

  close(): Promise<void> {
    return this.#channel.close();
  }

  /** Sends commands in one request; answers in the same order. Errors stay in the answers. */
  send(commands: readonly DynsecCommand[]): Promise<DynsecResponse[]> {
    return this.#channel.send(commands);
  }

  /** Deny-by-default for every client without a matching ACL. */
  async setDefaultAcl(): Promise<void> {
    await this.#channel.one({ command: 'setDefaultACLAccess', acls: DEFAULT_ACL_ACCESS });
  }

  /** Creates the role with exactly these ACLs, or brings an existing one to exactly these ACLs. */
  async ensureRole(rolename: string, acls: readonly DynsecAcl[]): Promise<void> {
    const got = await this.#channel.one({ command: 'getRole', rolename }, ['Role not found']);
    if (got.error) {
      const created = await this.#channel.one({ command: 'createRole', rolename, acls }, ['Role already exists']);
      if (!created.error) return;
      return this.ensureRole(rolename, acls); // created meanwhile by someone else: reconcile
    }
    const current = ((got.data?.role as { acls?: DynsecAcl[] } | undefined)?.acls ?? []) as DynsecAcl[];
    const stale = current.filter((a) => !acls.some((b) => sameAcl(a, b)));
    const missing = acls.filter((b) => !current.some((a) => sameAcl(a, b)));
    await this.#channel.all([
      ...stale.map((a) => ({ command: 'removeRoleACL', rolename, acltype: a.acltype, topic: a.topic })),
      ...missing.map((a) => ({ command: 'addRoleACL', rolename, ...a })),
    ]);
  }

  async #getClient(username: string): Promise<ClientInfo | undefined> {
    const got = await this.#channel.one({ command: 'getClient', username }, ['Client not found']);
    if (got.error) return undefined;
    const client = (got.data?.client ?? {}) as Partial<ClientInfo>;
    return {
      username,
      ...(client.textname ? { textname: client.textname } : {}),
      roles: client.roles ?? [],
      groups: client.groups ?? [],
    };
  }

  /**
   * A client with this password and exactly this one role. An existing client that carries other
   * roles or groups was not made by Switchboard, and is refused rather than taken over.
   */
  async #ensureClient(
    username: string,
    password: string,
    rolename: string,
    textname: string,
    clientid: string | undefined,
  ): Promise<'created' | 'updated'> {
    const existing = await this.#getClient(username);
    if (!existing) {
      const created = await this.#channel.one(
        {
          command: 'createClient',
          username,
          password,
          textname,
          ...(clientid === undefined ? {} : { clientid }),
          roles: [{ rolename, priority: 0 }],
        },
        ['Client already exists'],
      );
      if (!created.error) return 'created';
      return this.#ensureClient(username, password, rolename, textname, clientid);
    }
    if (!isManaged(existing, rolename, textname)) {
      throw new CodedError(
        'BROKER_CLIENT_NOT_MANAGED',
        `the broker already has a client "${username}" that Switchboard did not create (roles: ${existing.roles.map((r) => r.rolename).join(', ') || 'none'}); remove it there first`,
        { username },
      );
    }
    await this.#channel.all([
      { command: 'setClientPassword', username, password },
      // An empty client id lifts the binding.
      { command: 'setClientId', username, clientid: clientid ?? '' },
      ...(existing.roles.some((r) => r.rolename === rolename)
        ? []
        : [{ command: 'addClientRole', username, rolename, priority: 0 }]),
      { command: 'enableClient', username },
    ]);
    return 'updated';
  }

  #checkAgentId(agentId: string): void {
    if (!isValidId(agentId))
      throw new CodedError('INVALID_AGENT_ID', `"${String(agentId).slice(0, 80)}" is not an AOR agentId`);
    if (this.#reserved.has(agentId))
      throw new CodedError(
        'RESERVED_USERNAME',
        `"${agentId}" is the broker username of the server or its admin; choose another agentId`,
      );
    // Newer Mosquitto versions substitute a level of exactly %c / %u in ACL topics with the
    // connecting client's id or username; an agent named so would get a pattern, not a topic.
    if (agentId === '%c' || agentId === '%u')
      throw new CodedError('INVALID_AGENT_ID', `"${agentId}" is an ACL substitution pattern in Mosquitto`);
  }

  /**
   * Creates the agent (or sets its new password) with its §8 role. Returns what happened.
   *
   * `bindClientId` (default true) binds the credential to MQTT client id = agentId. Mosquitto
   * lets any authenticated client take over a connected client id, whoever holds it; with every
   * agent bound to its own id, no agent can disconnect another agent or the server by reusing
   * its client id (the embedded broker refuses such a newcomer instead).
   */
  async addAgent(
    agentId: string,
    password: string,
    options: { bindClientId?: boolean } = {},
  ): Promise<'created' | 'updated'> {
    this.#checkAgentId(agentId);
    await this.ensureRole(agentRoleName(agentId), agentAcls(agentId));
    return this.#ensureClient(
      agentId,
      password,
      agentRoleName(agentId),
      AGENT_TEXT_NAME,
      options.bindClientId === false ? undefined : agentId,
    );
  }

  /**
   * Deletes the agent's client (Mosquitto disconnects it at once) and its role. False when there
   * was no such client; refused for a client Switchboard did not create.
   */
  async removeAgent(agentId: string): Promise<boolean> {
    this.#checkAgentId(agentId);
    const rolename = agentRoleName(agentId);
    const existing = await this.#getClient(agentId);
    if (existing && !isManaged(existing, rolename, AGENT_TEXT_NAME)) {
      throw new CodedError(
        'BROKER_CLIENT_NOT_MANAGED',
        `the broker's client "${agentId}" was not created by Switchboard; not removing it`,
        { username: agentId },
      );
    }
    if (existing) await this.#channel.one({ command: 'deleteClient', username: agentId }, ['Client not found']);
    await this.#channel.one({ command: 'deleteRole', rolename }, ['Role not found']);
    return existing !== undefined;
  }

  /**
   * Suspends (`disableClient`: Mosquitto disconnects it and refuses it at CONNECT) or resumes
   * (`enableClient`) the agent's client. False when the broker has no such client.
   */
  async setAgentEnabled(agentId: string, enabled: boolean): Promise<boolean> {
    this.#checkAgentId(agentId);
    const command = enabled ? 'enableClient' : 'disableClient';
    const answer = await this.#channel.one({ command, username: agentId }, ['Client not found']);
    return !answer.error;
  }

  /**
   * Closes the agent's connections now and lets it connect again: dynsec has no "kick", but
   * disabling a client disconnects it (decisions-server.md §63). A suspended agent stays disabled.
   */
  async kickAgent(agentId: string, stayDisabled = false): Promise<boolean> {
    if (!(await this.setAgentEnabled(agentId, false))) return false;
    if (!stayDisabled) await this.setAgentEnabled(agentId, true);
    return true;
  }

  /** Agents Switchboard provisioned on this broker (clients holding an agent role). */
  async listAgents(): Promise<string[]> {
    const got = await this.#channel.one({ command: 'listClients', verbose: true });
    const clients = (got.data?.clients ?? []) as { username: string; roles?: { rolename: string }[] }[];
    return clients
      .filter((c) => c.roles?.some((r) => r.rolename === agentRoleName(c.username)))
      .map((c) => c.username)
      .sort();
  }

  /**
   * Everything the server needs before it connects: deny-by-default, the server role and its
   * client with this password, bound to `clientId` (null: not bound). Run by
   * `npm run cli -- broker setup`.
   */
  async setupServer(
    username: string,
    password: string,
    clientId: string | null = DEFAULT_SERVER_CLIENT_ID,
  ): Promise<'created' | 'updated'> {
    await this.setDefaultAcl();
    await this.ensureRole(SERVER_ROLE, SERVER_ACLS);
    return this.#ensureClient(username, password, SERVER_ROLE, SERVER_TEXT_NAME, clientId ?? undefined);
  }
}
