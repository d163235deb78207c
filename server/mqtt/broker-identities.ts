// Comparing the identities the embedded broker authenticated: one client id per identity, and a
// console's connection ends once its operator's rights change.
import type { Client } from 'aedes';
import type { BrokerIdentity } from './acl';

export function sameIdentity(a: BrokerIdentity, b: BrokerIdentity): boolean {
  if (a.kind === 'agent' && b.kind === 'agent') return a.agentId === b.agentId;
  if (a.kind === 'operator' && b.kind === 'operator') return a.did === b.did;
  return false;
}

/** The same identity with the same rights (an operator's role included). */
export function sameGrant(a: BrokerIdentity, b: BrokerIdentity): boolean {
  return sameIdentity(a, b) && (a.kind !== 'operator' || b.kind !== 'operator' || a.role === b.role);
}

/** Whether aedes chose the client's id (it sent an empty one); `_assignedClientId` is not in aedes' typings. */
export function isAssignedId(client: Client): boolean {
  const assigned = (client as unknown as { _assignedClientId?: string })._assignedClientId;
  return assigned !== undefined && assigned === client.id;
}
