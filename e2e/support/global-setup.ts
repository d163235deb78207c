import { existsSync } from 'node:fs';
import { startServer } from './server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync('dist/web/index.html')) throw new Error('Build the SPA first (npm run build); npm test does this.');
  const server = await startServer({ DEMO: '0' }, { enrollLinkWaitMs: 5_000 });
  process.env.SWITCHBOARD_URL = server.url;
  // The first facilitator's one-time link (e2e/identity.spec.ts uses it) and the data directory
  // the operators CLI needs to create more invitations (e2e/support/operators.ts).
  if (server.enrollUrl) process.env.SWITCHBOARD_ENROLL_URL = server.enrollUrl;
  process.env.SWITCHBOARD_DATA_DIR = server.dataDir;
  // Where journeys connect real agents over MQTT TCP (e2e/support/agents.ts).
  if (server.mqttUrl) process.env.SWITCHBOARD_MQTT_URL = server.mqttUrl;
  return () => server.stop();
}
