// `npm start`: the console, the BFF, the embedded MQTT broker and the gateway, in one process.
import { consoleBaseUrl, firstStartEnrollmentLine } from './auth/enrollment';
import { ConfigError, loadConfig } from './config';
import { startSwitchboard, type RunningSwitchboard } from './runtime/start-switchboard';
import { VERSION } from './version';

function fatal(message: string): never {
  console.error(`switchboard: ${message}`);
  process.exit(1);
}

let running: RunningSwitchboard;
try {
  const config = loadConfig();
  running = await startSwitchboard(config);
} catch (error) {
  if (error instanceof ConfigError) fatal(error.message);
  throw error;
}

// "listening on" is the last line of a start: scripts and tests wait for it.
console.log(`MQTT for agents on ${running.mqttUrl} (WebSocket for the console at /mqtt)`);
const enroll = await firstStartEnrollmentLine(
  running.store,
  consoleBaseUrl(running.http.address, running.http.port),
  Date.now(),
);
if (enroll !== undefined) console.log(enroll);
console.log(`Switchboard ${VERSION} listening on ${running.url}`);

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
