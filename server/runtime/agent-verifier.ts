// The embedded broker's check of an agent's MQTT credential (decisions-server.md §39, §62, §71):
// the password against the stored hash at CONNECT, a suspended agent refused, and then, while the
// connection stays, the credential as it was at CONNECT: the same password (not rotated or
// removed), still not suspended, and the same "disconnect now" marker.
import { checkAgentPassword, fastAgentHash } from '../auth/agent-password';
import type { StillValid } from '../mqtt/revalidate';
import type { AccessStore, AgentCredential } from '../store/store';
import { batchedCredentials } from './credential-batch';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('mqtt');

type CredentialAccess = Pick<AccessStore, 'getAgentCredential' | 'getAgentCredentials' | 'upgradeAgentPasswordHash'>;

export function agentVerifier(access: CredentialAccess) {
  // The checks of open connections, read together when asked together (a sweep).
  const currentCredential = batchedCredentials(access);
  return async (agentId: string, password: string): Promise<false | 'suspended' | StillValid> => {
    const read = await access.getAgentCredential(agentId);
    if (!read) return false;
    const check = await checkAgentPassword(password, read.passwordHash);
    if (!check.ok) return false;
    // The suspension and the marker are what they are after the check: a slow (scrypt) check
    // gives a suspension time to land, and a CONNECT it started before must not outlive it.
    const credential = check.slow ? await access.getAgentCredential(agentId) : read;
    if (!credential || credential.passwordHash !== read.passwordHash) return false;
    if (credential.suspended) return 'suspended';
    // Both forms of this connection's password: the one read, and the fast form it is upgraded to
    // (by this connect or by another connection of the same agent), which revokes nothing.
    const hashes = new Set([read.passwordHash, check.upgradeTo ?? fastFormOf(password)]);
    if (check.upgradeTo) await upgrade(access, credential, check.upgradeTo);
    // The CLI (perhaps another process) and the console change the stored credential; the broker
    // asks this again and ends the connection once it is false.
    return async () => {
      const current = await currentCredential(agentId);
      return (
        current !== undefined &&
        hashes.has(current.passwordHash) &&
        current.suspended === null &&
        current.disconnectedAt === credential.disconnectedAt
      );
    };
  };
}

/** The fast form of a server-made password; a person's password has none (it stays in scrypt). */
function fastFormOf(password: string): string {
  try {
    return fastAgentHash(password);
  } catch {
    return '';
  }
}

async function upgrade(access: CredentialAccess, credential: AgentCredential, to: string): Promise<void> {
  try {
    // Only while the hash is still the one checked: a rotation meanwhile stands.
    await access.upgradeAgentPasswordHash(credential.agentId, credential.passwordHash, to);
  } catch (error) {
    // The connect stands; the next one tries again.
    log.warn({ agentId: credential.agentId, err: error }, "could not store the faster form of an agent's password");
  }
}
