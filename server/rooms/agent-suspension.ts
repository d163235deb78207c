// Whether an agent is suspended, as the room health panel shows it. The one place that answers it:
// a suspension is kept with the agent's broker credential, so an agent without a credential, or
// whose credential carries no suspension, is not suspended.
import type { AccessStore } from '../store/store';

export type IsSuspended = (agentId: string) => Promise<boolean>;

export function suspendedByCredential(access: AccessStore): IsSuspended {
  return async (agentId) => Boolean((await access.getAgentCredential(agentId))?.suspended);
}
