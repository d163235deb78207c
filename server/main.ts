// `npm start`: the console, the BFF, the embedded MQTT broker and the gateway, in one process.
// Its output is the server log, JSON lines (logging/logger.ts), with one plain line on a first
// start: the link for the first facilitator (decisions-server.md §65).
import { consoleBaseUrl, ENROLLMENT_TTL_MS, firstStartEnrollmentLine } from './auth/enrollment';
import { ConfigError, loadConfig } from './config';
import { announcements, setLogLevel } from './logging/logger';
import { startSwitchboard, type RunningSwitchboard } from './runtime/start-switchboard';
import { VERSION } from './version';

/** A start that cannot happen: one plain line on stderr naming what to fix, never a stack trace. */
function fatal(message: string): never {
  process.stderr.write(`switchboard: ${message}\n`);
  process.exit(1);
}

let running: RunningSwitchboard;
try {
  const config = loadConfig();
  setLogLevel(config.logLevel ?? 'info');
  running = await startSwitchboard(config);
} catch (error) {
  if (error instanceof ConfigError) fatal(error.message);
  throw error;
}

// "listening on" is the last line of a start: scripts and tests wait for it. These announcements
// are written whatever LOG_LEVEL says.
announcements.info(
  { mqttUrl: running.mqttUrl },
  `MQTT for agents on ${running.mqttUrl} (WebSocket for the console at /mqtt)`,
);
const now = running.clock.now();
const enroll = await firstStartEnrollmentLine(
  running.store,
  consoleBaseUrl(running.http.address, running.http.port),
  now,
);
if (enroll !== undefined) {
  // The link is a credential: the log says that it was printed, and the person at the terminal
  // reads it on a plain line of its own, written once and never into a log field.
  announcements.info(
    { expiresAt: new Date(now + ENROLLMENT_TTL_MS).toISOString() },
    'nobody is enrolled yet: the one-time link for the first facilitator is on the next line',
  );
  process.stdout.write(`${enroll}\n`);
}
announcements.info({ version: VERSION, url: running.url }, `Switchboard ${VERSION} listening on ${running.url}`);

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
