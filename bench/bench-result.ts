// The one machine-readable line each bench ends with, for `npm run bench` (bench/run-all.ts):
// `BENCH_RESULT {"bench":…,"figures":[…]}` on stdout. The human-readable output stays as it was.
export interface BenchFigure {
  /** What is measured, e.g. "relay ingest, 64 posts in flight". */
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  /** What it is compared with in the same run, when anything is. */
  readonly baseline?: string;
  readonly baselineValue?: number;
  /** value / baselineValue unless the bench defines it otherwise (then it says so in `metric`). */
  readonly ratio?: number;
  /** Other absolute figures worth a glance (a p50 beside a p99), in words. */
  readonly note?: string;
}

export const RESULT_PREFIX = 'BENCH_RESULT ';

export function printBenchResult(bench: string, figures: readonly BenchFigure[]): void {
  const round = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? n : Number(n.toPrecision(4)));
  const rounded = figures.map((f) => ({
    ...f,
    value: round(f.value),
    baselineValue: round(f.baselineValue),
    ratio: round(f.ratio ?? (f.baselineValue ? f.value / f.baselineValue : undefined)),
  }));
  console.log(RESULT_PREFIX + JSON.stringify({ bench, figures: rounded }));
}

/** Prints `message` (an Error's stack) and exits 1: how a bench fails, whatever failed. */
export function failBench(bench: string, error: unknown): never {
  console.error(`${bench} bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}

/** Makes an unhandled rejection or exception end the bench with exit 1 and a message. */
export function failOnUnhandled(bench: string): void {
  process.on('unhandledRejection', (error) => failBench(bench, error));
  process.on('uncaughtException', (error) => failBench(bench, error));
}
