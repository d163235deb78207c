// Whether an agent is suspended, as the room health panel shows it. The one place that answers it:
// a suspension is kept with the agent's broker credential, so an agent without a credential, or
// whose credential carries no suspension, is not suspended.
import type { AccessStore } from '../store/store';

export type IsSuspended = (agentId: string) => Promise<boolean>;

/** Reads the credential's `suspended` when the credential record has one. */
export function suspendedByCredential(access: AccessStore): IsSuspended {
  return async (agentId) => {
    const credential: object | undefined = await access.getAgentCredential(agentId);
    return credential !== undefined && 'suspended' in credential && Boolean(credential.suspended);
  };
}
