// `npm run --silent cli -- <command>`: the operator CLI (see cli/run-cli.ts and README "Command-line").
import { runCli } from './cli/run-cli';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  now: () => Date.now(),
});
