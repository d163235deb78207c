import { existsSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { startServer } from './server';
import { SERVER_VARIABLES, slotVariable } from './server-slot';

/**
 * One server per worker slot (playwright.config.ts `workers`): journeys in different workers
 * change no state another can see (review mode, grants, who enrolled first).
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  if (!existsSync('dist/web/index.html') || !existsSync('dist/server/main.js'))
    throw new Error('Build first (npm run build); npm test does this.');
  const servers = await Promise.all(
    Array.from({ length: config.workers }, () => startServer({ DEMO: '0' }, { enrollLinkWaitMs: 5_000 })),
  );
  servers.forEach((server, slot) => {
    const values: Record<(typeof SERVER_VARIABLES)[number], string | undefined> = {
      SWITCHBOARD_URL: server.url,
      // The first facilitator's one-time link (e2e/identity.spec.ts uses it) and the data directory
      // the operators CLI needs to create more invitations (e2e/support/operators.ts).
      SWITCHBOARD_ENROLL_URL: server.enrollUrl,
      SWITCHBOARD_DATA_DIR: server.dataDir,
      // Where journeys connect real agents over MQTT TCP (e2e/support/agents.ts).
      SWITCHBOARD_MQTT_URL: server.mqttUrl,
    };
    for (const name of SERVER_VARIABLES) {
      const value = values[name];
      if (value !== undefined) process.env[slotVariable(name, slot)] = value;
    }
  });
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
}
