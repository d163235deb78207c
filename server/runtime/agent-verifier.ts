// The embedded broker's check of an agent's MQTT credential (decisions-server.md §39, §62): the
// password against the stored hash at CONNECT, a suspended agent refused, and then, while the
// connection stays, the credential as it was at CONNECT: the same hash (not rotated or removed),
// still not suspended, and the same "disconnect now" marker.
import { verifyPassword } from '../auth/password';
import type { StillValid } from '../mqtt/revalidate';
import type { AccessStore } from '../store/store';

export function agentVerifier(access: Pick<AccessStore, 'getAgentCredential'>) {
  return async (agentId: string, password: string): Promise<false | 'suspended' | StillValid> => {
    const credential = await access.getAgentCredential(agentId);
    if (!credential || !(await verifyPassword(password, credential.passwordHash))) return false;
    if (credential.suspended) return 'suspended';
    // The CLI (perhaps another process) and the console change the stored credential; the broker
    // asks this again and ends the connection once it is false.
    return async () => {
      const current = await access.getAgentCredential(agentId);
      return (
        current !== undefined &&
        current.passwordHash === credential.passwordHash &&
        current.suspended === null &&
        current.disconnectedAt === credential.disconnectedAt
      );
    };
  };
}
