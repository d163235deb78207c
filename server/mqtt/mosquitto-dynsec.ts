// Provisioning an external Mosquitto 2 through its dynamic-security plugin: the
// §8 ACL as one role per agent, the server's own client and role, and the default ACL access.
// Commands go over MQTT to `$CONTROL/dynamic-security/v1` as the plugin's admin; answers come back
// on `…/response`. Every operation is idempotent, and every failure is a CodedError.
//
// The rules are acl.ts's, with one documented difference (docs/decisions-external-broker.md): an
// agent publishes candidates to its own subtopic `rooms/{roomId}/public_candidates/{agentId}`,
// because a subscriber of an external broker cannot learn who published; the ACL makes the last
// level the authenticated agent.
import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { isValidId } from '@shared/aor/ids';
import { CodedError } from '@shared/errors';

export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;
export const SERVER_ROLE = 'switchboard-server';
export const DEFAULT_SERVER_USERNAME = 'switchboard-server';
/** The server's MQTT client id, to which its credential is bound (see addAgent). */
export const DEFAULT_SERVER_CLIENT_ID = 'switchboard-server';
/** The MQTT 5 shared-subscription group every instance's gateway joins. */
export const GATEWAY_SHARE_GROUP = 'switchboard-gateway';
const AGENT_ROLE_PREFIX = 'switchboard-agent-';
const AGENT_TEXT_NAME = 'Switchboard agent';
const SERVER_TEXT_NAME = 'Switchboard server (BFF and gateway)';

export const agentRoleName = (agentId: string) => `${AGENT_ROLE_PREFIX}${agentId}`;

/** The per-agent candidate topic of external-broker mode. */
export const agentCandidateTopic = (roomId: string, agentId: string) => `rooms/${roomId}/public_candidates/${agentId}`;

export type AclType =
  | 'publishClientSend'
  | 'publishClientReceive'
  | 'subscribeLiteral'
  | 'subscribePattern'
  | 'unsubscribeLiteral'
  | 'unsubscribePattern';

export interface DynsecAcl {
  readonly acltype: AclType;
  readonly topic: string;
  readonly allow: boolean;
  /** Higher is checked first; the first matching ACL decides. */
  readonly priority: number;
}

const allow = (acltype: AclType, topic: string): DynsecAcl => ({ acltype, topic, allow: true, priority: 10 });
/** Catch-alls below every allow: the role denies by itself, whatever the default ACL access says. */
const denyAll = (acltype: AclType, topic: string): DynsecAcl => ({ acltype, topic, allow: false, priority: -10 });

/**
 * AOR §8 for one agent. Subscribing is checked against the filter as asked (a wildcard that
 * could reach another agent's inbox is not covered by `rooms/+/agents/{id}/inbox`, so it is
 * refused), and delivery is checked again by `publishClientReceive`, so even a filter that slipped
 * through would carry nothing else. `$`-topics (`$SYS`, `$CONTROL`, `$share/…`) match none of the
 * allows: refused.
 */
export function agentAcls(agentId: string): DynsecAcl[] {
  const readable = ['rooms/+/public', 'rooms/+/control', `rooms/+/agents/${agentId}/inbox`];
  return [
    ...readable.map((t) => allow('subscribePattern', t)),
    ...readable.map((t) => allow('publishClientReceive', t)),
    allow('publishClientSend', agentCandidateTopic('+', agentId)),
    allow('publishClientSend', `rooms/+/agents/${agentId}/heartbeat`),
    allow('publishClientSend', `rooms/+/agents/${agentId}/work`),
    denyAll('subscribePattern', '#'),
    denyAll('publishClientReceive', '#'),
    denyAll('publishClientSend', '#'),
  ];
}

/**
 * The BFF and the gateway: read every room topic and the console's own topics; publish what the
 * gateway and facilitators publish (public, control, inboxes) and console notices. Publishing to
 * the agents' own topics is allowed only so the server can clear a retained message an agent left
 * there (an empty retained publish); it never publishes anything else on them.
 */
export const SERVER_ACLS: readonly DynsecAcl[] = [
  allow('subscribePattern', 'rooms/#'),
  // The gateways' shared subscription (several instances; docs/decisions-cluster.md): Mosquitto
  // checks a shared filter's ACL with its `$share/{group}/` prefix.
  allow('subscribePattern', `$share/${GATEWAY_SHARE_GROUP}/rooms/#`),
  allow('subscribePattern', 'switchboard/#'),
  allow('publishClientReceive', 'rooms/#'),
  allow('publishClientReceive', 'switchboard/#'),
  allow('publishClientSend', 'rooms/+/public'),
  allow('publishClientSend', 'rooms/+/control'),
  allow('publishClientSend', 'rooms/+/agents/+/inbox'),
  allow('publishClientSend', 'switchboard/#'),
  allow('publishClientSend', 'rooms/+/public_candidates/+'),
  allow('publishClientSend', 'rooms/+/agents/+/heartbeat'),
  allow('publishClientSend', 'rooms/+/agents/+/work'),
];

/** Deny by default: a client without a matching ACL can neither publish, subscribe nor receive. */
export const DEFAULT_ACL_ACCESS = [
  { acltype: 'publishClientSend', allow: false },
  { acltype: 'publishClientReceive', allow: false },
  { acltype: 'subscribe', allow: false },
  { acltype: 'unsubscribe', allow: true },
] as const;

export interface DynsecConnection {
  /** `mqtt://host:port` (or mqtts://). */
  readonly url: string;
  /** The dynamic-security admin (MQTT_ADMIN_USERNAME / MQTT_ADMIN_PASSWORD). */
  readonly username: string;
  readonly password: string;
  /** How long to wait for the plugin's answer; default 10 s. */
  readonly timeoutMs?: number;
  /** Usernames agents may never take (the server's own); the admin's is always reserved. */
  readonly reservedUsernames?: readonly string[];
}

interface DynsecResponse {
  readonly command: string;
  readonly error?: string;
  readonly data?: Record<string, unknown>;
  readonly correlationData?: string;
}

type Command = Record<string, unknown> & { readonly command: string };

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

const sameAcl = (a: DynsecAcl, b: DynsecAcl) => a.acltype === b.acltype && a.topic === b.topic;

export class DynsecAdmin {
  readonly #client: MqttClient;
  readonly #timeoutMs: number;
  readonly #reserved: ReadonlySet<string>;
  readonly #pending = new Map<
    string,
    { resolve: (r: DynsecResponse[]) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();

  private constructor(client: MqttClient, options: DynsecConnection) {
    this.#client = client;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#reserved = new Set([options.username, ...(options.reservedUsernames ?? [DEFAULT_SERVER_USERNAME])]);
    client.on('message', (topic, payload) => {
      if (topic === DYNSEC_RESPONSE_TOPIC) this.#answer(payload);
    });
  }

  static async connect(options: DynsecConnection): Promise<DynsecAdmin> {
    let client: MqttClient;
    try {
      client = await mqtt.connectAsync(options.url, {
        username: options.username,
        password: options.password,
        protocolVersion: 5,
        reconnectPeriod: 0,
        connectTimeout: options.timeoutMs ?? 10_000,
        clientId: `switchboard-admin-${randomUUID().slice(0, 8)}`,
      });
    } catch (error) {
      const message = (error as Error).message;
      if (/not authorized|bad user name or password/i.test(message)) {
        throw new CodedError(
          'BROKER_AUTH_FAILED',
          `the broker at ${options.url} refused the admin "${options.username}" (${message}); check MQTT_ADMIN_USERNAME and MQTT_ADMIN_PASSWORD`,
        );
      }
      throw new CodedError('BROKER_UNREACHABLE', `cannot reach the broker at ${options.url}: ${message}`);
    }
    client.on('error', () => undefined); // surfaced through the pending requests instead
    const admin = new DynsecAdmin(client, options);
    try {
      const granted = await client.subscribeAsync(DYNSEC_RESPONSE_TOPIC, { qos: 1 });
      if ((granted[0]?.qos ?? 0x80) >= 0x80) throw new Error('refused');
    } catch {
      await client.endAsync(true);
      throw new CodedError(
        'DYNSEC_NOT_ADMIN',
        `"${options.username}" may not read ${DYNSEC_RESPONSE_TOPIC}; it is not the dynamic-security admin`,
      );
    }
    return admin;
  }

  async close(): Promise<void> {
    for (const [, p] of this.#pending) {
      clearTimeout(p.timer);
      p.reject(new CodedError('DYNSEC_CLOSED', 'the dynamic-security connection was closed'));
    }
    this.#pending.clear();
    await this.#client.endAsync();
  }

  #answer(payload: Buffer): void {
    let responses: DynsecResponse[];
    try {
      responses = (JSON.parse(payload.toString('utf8')) as { responses?: DynsecResponse[] }).responses ?? [];
    } catch {
      return;
    }
    const batch = responses[0]?.correlationData?.split(':')[0];
    const pending = batch ? this.#pending.get(batch) : undefined;
    if (!batch || !pending) return; // another admin's answer
    this.#pending.delete(batch);
    clearTimeout(pending.timer);
    pending.resolve(responses);
  }

  /** Sends commands in one request; answers in the same order. Errors stay in the answers. */
  async send(commands: readonly Command[]): Promise<DynsecResponse[]> {
    if (commands.length === 0) return [];
    const batch = randomUUID();
    const answered = new Promise<DynsecResponse[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(batch);
        reject(
          new CodedError(
            'DYNSEC_TIMEOUT',
            `no answer on ${DYNSEC_RESPONSE_TOPIC} within ${this.#timeoutMs} ms: is the dynamic-security plugin loaded?`,
          ),
        );
      }, this.#timeoutMs);
      this.#pending.set(batch, { resolve, reject, timer });
    });
    const body = { commands: commands.map((c, i) => ({ ...c, correlationData: `${batch}:${i}` })) };
    try {
      await this.#client.publishAsync(DYNSEC_TOPIC, JSON.stringify(body), { qos: 1 });
    } catch (error) {
      const pending = this.#pending.get(batch);
      if (pending) clearTimeout(pending.timer);
      this.#pending.delete(batch);
      throw new CodedError('DYNSEC_FAILED', `cannot send to ${DYNSEC_TOPIC}: ${(error as Error).message}`);
    }
    const responses = await answered;
    return commands.map(
      (c, i) =>
        responses.find((r) => r.correlationData === `${batch}:${i}`) ?? { command: c.command, error: 'no answer' },
    );
  }

  /** One command; its error (other than those in `tolerate`) is thrown as DYNSEC_FAILED. */
  async #one(command: Command, tolerate: readonly string[] = []): Promise<DynsecResponse> {
    const [response] = await this.send([command]);
    if (response?.error && !tolerate.includes(response.error)) {
      throw new CodedError('DYNSEC_FAILED', `dynamic-security ${command.command} failed: ${response.error}`, {
        command: command.command,
        error: response.error,
      });
    }
    return response!;
  }

  async #all(commands: readonly Command[]): Promise<void> {
    const responses = await this.send(commands);
    const failed = responses.find((r) => r.error);
    if (failed)
      throw new CodedError('DYNSEC_FAILED', `dynamic-security ${failed.command} failed: ${failed.error}`, {
        command: failed.command,
        error: failed.error,
      });
  }

  /** Deny-by-default for every client without a matching ACL. */
  async setDefaultAcl(): Promise<void> {
    await this.#one({ command: 'setDefaultACLAccess', acls: DEFAULT_ACL_ACCESS });
  }

  /** Creates the role with exactly these ACLs, or brings an existing one to exactly these ACLs. */
  async ensureRole(rolename: string, acls: readonly DynsecAcl[]): Promise<void> {
    const got = await this.#one({ command: 'getRole', rolename }, ['Role not found']);
    if (got.error) {
      const created = await this.#one({ command: 'createRole', rolename, acls }, ['Role already exists']);
      if (!created.error) return;
      return this.ensureRole(rolename, acls); // created meanwhile by someone else: reconcile
    }
    const current = ((got.data?.role as { acls?: DynsecAcl[] } | undefined)?.acls ?? []) as DynsecAcl[];
    const wanted = (a: DynsecAcl) =>
      acls.find((b) => sameAcl(a, b) && a.allow === b.allow && a.priority === b.priority);
    const stale = current.filter((a) => !wanted(a));
    const missing = acls.filter(
      (b) => !current.some((a) => sameAcl(a, b) && a.allow === b.allow && a.priority === b.priority),
    );
    await this.#all([
      ...stale.map((a) => ({ command: 'removeRoleACL', rolename, acltype: a.acltype, topic: a.topic })),
      ...missing.map((a) => ({ command: 'addRoleACL', rolename, ...a })),
    ]);
  }

  async #getClient(username: string): Promise<ClientInfo | undefined> {
    const got = await this.#one({ command: 'getClient', username }, ['Client not found']);
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
      const created = await this.#one(
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
    await this.#all([
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
    if (existing) await this.#one({ command: 'deleteClient', username: agentId }, ['Client not found']);
    await this.#one({ command: 'deleteRole', rolename }, ['Role not found']);
    return existing !== undefined;
  }

  /** Agents Switchboard provisioned on this broker (clients holding an agent role). */
  async listAgents(): Promise<string[]> {
    const got = await this.#one({ command: 'listClients', verbose: true });
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
