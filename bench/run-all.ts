// `npm run bench`: every bench, one after another, each as a child process of its own with a time
// limit, with short settings (the env variables and flags each bench's header names), then one
// Markdown table of their BENCH_RESULT lines (bench/bench-result.ts) with the commit and the date.
// A bench that fails, times out or prints no result line makes this exit 1 once the others ran.
//
// Env: BENCH_ONLY=relay,backup runs those alone; BENCH_FULL=1 runs each with its own defaults (the
// figures docs/benchmarks.md quotes; far longer) and BENCH_TIME_SCALE multiplies every time limit.
// Each bench's whole output goes to BENCH_LOG_DIR (a fresh temporary directory by default), named
// in the table's heading, beside summary.md, the table itself.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchFigure, RESULT_PREFIX } from './bench-result';
import { BENCHES, type BenchRun } from './run-all-list';

type Outcome =
  | { readonly status: 'ok'; readonly figures: readonly BenchFigure[]; readonly seconds: number }
  | { readonly status: 'failed' | 'timed out' | 'no result'; readonly reason: string; readonly seconds: number };

const full = process.env.BENCH_FULL === '1';
const scale = Number(process.env.BENCH_TIME_SCALE ?? 1);
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
if (only) {
  const unknown = only.filter((name) => !BENCHES.some((b) => b.name === name));
  if (unknown.length > 0)
    throw new Error(`BENCH_ONLY names no bench ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`);
}
const logDir = process.env.BENCH_LOG_DIR ?? mkdtempSync(join(tmpdir(), 'switchboard-bench-'));
mkdirSync(logDir, { recursive: true });
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const commit = git('rev-parse', '--short', 'HEAD');
const dirty = git('status', '--porcelain', '--untracked-files=no') === '' ? '' : ' (with uncommitted changes)';

/** Runs one bench in its own process group, so a time-out ends what it started too (servers, Chromium). */
function runOne(bench: BenchRun): Promise<Outcome> {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 1000);
  const limitMs = (full ? bench.fullLimitSeconds : bench.limitSeconds) * 1000 * scale;
  const log = createWriteStream(join(logDir, `${bench.name}.log`));
  const child = spawn(process.execPath, ['--import', 'tsx', `bench/${bench.file}`, ...(full ? [] : bench.args)], {
    env: { ...process.env, ...(full ? {} : bench.env) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  current = child.pid;
  let stdout = '';
  let stderrTail = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    log.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-2000);
    log.write(chunk);
  });
  let timedOut = false;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone already
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup('SIGTERM');
    setTimeout(() => killGroup('SIGKILL'), 5000).unref();
  }, limitMs);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // Whatever it left behind (a server it forked) goes with it.
      killGroup('SIGKILL');
      log.end();
      const lastLine = (text: string) =>
        text
          .trim()
          .split('\n')
          .filter((line) => line.trim() !== '')
          .at(-1)
          ?.slice(0, 300) ?? '';
      if (timedOut)
        return resolve({ status: 'timed out', reason: `killed after ${limitMs / 1000} s`, seconds: seconds() });
      if (code !== 0)
        return resolve({
          status: 'failed',
          reason: `exit ${signal ?? code}: ${lastLine(stderrTail) || lastLine(stdout)}`,
          seconds: seconds(),
        });
      const line = stdout
        .split('\n')
        .reverse()
        .find((l) => l.startsWith(RESULT_PREFIX));
      if (!line) return resolve({ status: 'no result', reason: 'no BENCH_RESULT line on stdout', seconds: seconds() });
      try {
        const parsed = JSON.parse(line.slice(RESULT_PREFIX.length)) as { figures: BenchFigure[] };
        resolve({ status: 'ok', figures: parsed.figures, seconds: seconds() });
      } catch (error) {
        resolve({ status: 'no result', reason: `unreadable BENCH_RESULT: ${String(error)}`, seconds: seconds() });
      }
    });
  });
}

const num = (n: number | undefined) =>
  n === undefined || n === null
    ? '—'
    : Math.abs(n) >= 100
      ? Math.round(n).toLocaleString('en-US')
      : Number(n.toPrecision(3)).toLocaleString('en-US');
const cell = (text: string) => text.replaceAll('|', '\\|');

function table(results: readonly { bench: BenchRun; outcome: Outcome }[]): string {
  const rows = ['| bench | metric | baseline | ratio | figures |', '| --- | --- | --- | --- | --- |'];
  for (const { bench, outcome } of results) {
    if (outcome.status !== 'ok') {
      rows.push(`| ${bench.name} | **${outcome.status}** (${outcome.seconds} s) | | | ${cell(outcome.reason)} |`);
      continue;
    }
    for (const f of outcome.figures) {
      const figures = [
        `${num(f.value)} ${f.unit}`,
        f.baselineValue !== undefined ? `against ${num(f.baselineValue)} ${f.unit}` : '',
        f.note ?? '',
      ]
        .filter(Boolean)
        .join('; ');
      rows.push(
        `| ${bench.name} | ${cell(f.metric)} | ${cell(f.baseline ?? '—')} | ${f.ratio === undefined ? '—' : num(f.ratio)} | ${cell(figures)} |`,
      );
    }
  }
  return rows.join('\n');
}

const chosen = BENCHES.filter((b) => !only || only.includes(b.name));
const results: { bench: BenchRun; outcome: Outcome }[] = [];
console.log(`${chosen.length} benches, ${full ? 'full' : 'short'} settings; logs in ${logDir}`);
if (chosen.some((b) => b.needsBuild)) {
  // In a child process, as `npm start` does, so the build tools stay out of this one; a failed build
  // shows in the benches that need it.
  process.stdout.write('building what is stale in dist/ … ');
  const build = spawnSync(
    process.execPath,
    ['-e', "import('./scripts/build/ensure-built.mjs').then((m) => m.ensureBuilt(['web', 'server']))"],
    { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 * scale },
  );
  console.log(build.status === 0 ? 'done' : `failed (${build.error?.message ?? `exit ${build.status}`})`);
}
// Ctrl-C ends the bench under way too: it runs in a process group of its own.
let current: number | undefined;
process.once('SIGINT', () => {
  if (current !== undefined) process.kill(-current, 'SIGKILL');
  process.exit(130);
});
for (const bench of chosen) {
  const settings = full ? 'defaults' : [...Object.entries(bench.env).map(([k, v]) => `${k}=${v}`), ...bench.args];
  process.stdout.write(`${bench.name} (${Array.isArray(settings) ? settings.join(' ') || 'defaults' : settings}) … `);
  const outcome = await runOne(bench);
  results.push({ bench, outcome });
  console.log(outcome.status === 'ok' ? `ok, ${outcome.seconds} s` : `${outcome.status}: ${outcome.reason}`);
}
const date = new Date().toISOString().replace(/:\d\d\.\d+Z$/, ' UTC');
const heading =
  `Commit ${commit}${dirty}, ${date}, ${full ? 'full' : 'short'} settings (npm run bench), Node ${process.version}, ` +
  `${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the end.`;
const summary = `${heading}\n\n${table(results)}\n`;
writeFileSync(join(logDir, 'summary.md'), summary);
console.log(`\n${summary}`);
const bad = results.filter((r) => r.outcome.status !== 'ok');
if (bad.length > 0) {
  console.error(
    `${bad.length} of ${results.length} benches did not finish: ${bad.map((r) => r.bench.name).join(', ')}`,
  );
  process.exit(1);
}
