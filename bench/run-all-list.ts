// The benches `npm run bench` runs (bench/run-all.ts), in order, each with the short settings of a
// quick run (the env variables and flags its header names) and its time limits. The full settings
// are each bench's own defaults, as `npm run bench:<name>` runs them.
export interface BenchRun {
  readonly name: string;
  readonly file: string;
  readonly env: Readonly<Record<string, string>>;
  readonly args: readonly string[];
  /** Kill and report "timed out" past this, with the short settings. */
  readonly limitSeconds: number;
  /** The same with the bench's own defaults (BENCH_FULL=1). */
  readonly fullLimitSeconds: number;
  /** Runs against dist/ (`npm run build`); the runner builds what is stale first. */
  readonly needsBuild?: boolean;
}

const run = (
  name: string,
  file: string,
  limitSeconds: number,
  fullLimitSeconds: number,
  env: Record<string, string> = {},
  args: string[] = [],
  needsBuild = false,
): BenchRun => ({ name, file, env, args, limitSeconds, fullLimitSeconds, needsBuild });

export const BENCHES: readonly BenchRun[] = [
  run('crypto', 'crypto-verify.ts', 60, 60),
  run('scheduling', 'scheduling.ts', 180, 180),
  run('negotiation', 'negotiation.ts', 300, 900, { NEGOTIATION_ROUNDS: '2', NEGOTIATION_LOG: '1000' }),
  run('negotiation-browser', 'negotiation-browser.ts', 240, 900, { SIZE: '1000' }),
  run('relay', 'relay.ts', 240, 600),
  run('backup', 'backup.ts', 180, 600, { BACKUP_MESSAGES: '20000', BACKUP_RUNS: '3' }),
  run('health', 'health.ts', 420, 900, { BENCH_RUNS: '10' }),
  run('flood', 'flood.ts', 300, 1800, {
    FLOOD_REJECTS: '100000',
    FLOOD_RUNS: '10',
    FLOOD_HEALTH_MS: '3000',
    FLOOD_SETTLE_MS: '2000',
  }),
  run('gateway', 'gateway.ts', 300, 600, { BENCH_SECONDS: '1', BENCH_TP_SECONDS: '1' }),
  run('gateway-external', 'gateway-external.ts', 300, 600, { BENCH_SECONDS: '1', BENCH_TP_SECONDS: '1' }),
  run('cluster', 'cluster.ts', 300, 600, { BENCH_ROUNDS: '1', BENCH_SECONDS: '3' }),
  run('ui', 'ui.ts', 420, 900, { UI_OPEN_RUNS: '1', LIVE_SECONDS: '5' }, [], true),
  run('inbox', 'inbox.ts', 300, 900, { INBOX_RUNS: '1' }, [], true),
  run('scale', 'scale.ts', 420, 1800, {}, ['--agents', '1000'], true),
  run('agent-list', 'agent-list.ts', 300, 900, {}, ['--agents', '1000', '--baseline', '100'], true),
];
