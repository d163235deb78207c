// The ACL table an external Mosquitto 2 enforces through its dynamic-security plugin: the §8 ACL
// as one role per agent, the server's own role, and the default ACL access, with the names they
// are provisioned under (mosquitto-dynsec.ts writes them to the broker).
//
// The rules are acl.ts's, with one documented difference (docs/decisions-external-broker.md): an
// agent publishes candidates to its own subtopic `rooms/{roomId}/public_candidates/{agentId}`,
// because a subscriber of an external broker cannot learn who published; the ACL makes the last
// level the authenticated agent.

export const SERVER_ROLE = 'switchboard-server';
export const DEFAULT_SERVER_USERNAME = 'switchboard-server';
/** The server's MQTT client id, to which its credential is bound (see DynsecAdmin.addAgent). */
export const DEFAULT_SERVER_CLIENT_ID = 'switchboard-server';
/** The MQTT 5 shared-subscription group every instance's gateway joins. */
export const GATEWAY_SHARE_GROUP = 'switchboard-gateway';
const AGENT_ROLE_PREFIX = 'switchboard-agent-';

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

/** The same rule: type, topic, allow and priority. */
export const sameAcl = (a: DynsecAcl, b: DynsecAcl) =>
  a.acltype === b.acltype && a.topic === b.topic && a.allow === b.allow && a.priority === b.priority;

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
