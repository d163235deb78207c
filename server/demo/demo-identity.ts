// The demo's keys follow from DEMO_SEED and a name, so the demo agents have the same DIDs on every
// start (and the tests and journeys can name them). Agora and negotiation keys are derived apart.
import { createHash } from 'node:crypto';
import { identityFromSecretKey, type AgentIdentity } from '@agents/identity';

const derived =
  (label: string) =>
  (seed: number, key: string, name: string): AgentIdentity =>
    identityFromSecretKey(
      new Uint8Array(
        createHash('sha256')
          .update(`switchboard/demo/${label}/${seed >>> 0}/${key}`)
          .digest(),
      ),
      name,
    );

/** A demo Agora agent's identity (services, concierge, OACoP calendars). */
export const demoIdentity = derived('agora');

/** A demo RFC 0002 party's identity. */
export const negotiationIdentity = derived('negotiation');
