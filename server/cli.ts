// `npm run --silent cli -- <command>`: the operator CLI (see cli/run-cli.ts and README "Command-line").
import { runCli } from './cli/run-cli';
import { setLogSink } from './logging/logger';

// The CLI's stdout is its output (`--json` included): a server log line from the code it shares
// with the server (the store) goes to stderr (decisions-server.md §65).
setLogSink(2);

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  now: () => Date.now(),
});
