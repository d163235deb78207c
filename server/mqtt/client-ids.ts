// Which MQTT client ids an identity may connect with. MQTT keys a session (its subscriptions and
// the QoS 1 messages queued while the client is away) by client id alone [MQTT-3.1.2-4], and a
// CONNECT with a held id takes the session over [MQTT-3.1.4-3]. So every identity gets a
// namespace of its own, which nobody else can enter: a session made under an id is then only ever
// resumed by the identity that made it, connected or not (docs/decisions-server.md §38).
//
// - an agent: its agentId, or `{agentId}/{anything}` for several connections (an agentId holds no
//   "/", so no agent's namespace overlaps another's);
// - an operator's console: `{did}/{anything}`; ids starting `did:` are the operators' alone;
// - anyone: an empty id, for which the broker assigns a random one (the console does this);
// - nobody: the server's own ids (with MQTT_URL its credential is bound to one of them).
import { DEFAULT_SERVER_CLIENT_ID } from './dynsec-acls';
import type { BrokerIdentity } from './acl';

/** Client ids the server uses for itself; refused to every client of the embedded broker. */
export const RESERVED_CLIENT_IDS: ReadonlySet<string> = new Set([DEFAULT_SERVER_CLIENT_ID]);

const OPERATOR_NAMESPACE = 'did:';

const within = (clientId: string, owner: string) => clientId === owner || clientId.startsWith(`${owner}/`);

/**
 * Whether `identity` may connect as `clientId`. `assigned` is true when the broker chose the id
 * (the client sent an empty one): a fresh random id is nobody's yet.
 */
export function mayUseClientId(identity: BrokerIdentity, clientId: string, assigned: boolean): boolean {
  if (assigned) return true;
  if (RESERVED_CLIENT_IDS.has(clientId)) return false;
  if (identity.kind === 'operator') return clientId.startsWith(`${identity.did}/`);
  return within(clientId, identity.agentId) && !clientId.startsWith(OPERATOR_NAMESPACE);
}
