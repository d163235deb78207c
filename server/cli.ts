// `npm run --silent cli -- <command>`: the operator CLI (see cli/run-cli.ts and README "Command-line").
import { shiftedClock } from './clock';
import { runCli } from './cli/run-cli';
import { ConfigError, testClockShiftMs } from './config';
import { setLogSink } from './logging/logger';

// The CLI's stdout is its output (`--json` included): a server log line from the code it shares
// with the server (the store) goes to stderr (decisions-server.md §65).
setLogSink(2);

let clock;
try {
  clock = shiftedClock(testClockShiftMs(process.env) ?? 0);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`switchboard: ${error.message}\n`);
  process.exit(1);
}

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  now: () => clock.now(),
});
