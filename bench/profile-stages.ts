// Where a gateway bench path's server time goes, by stage, in µs per delivery: reads the main
// thread's CPU profile that `BENCH_PROFILE=<path> node --cpu-prof` wrote (bench/gateway.ts) and
// sorts every sample into a stage by the code it was in. A sample in Node's own code (a native
// call, a promise job) counts for the nearest caller of the project's or a package's code. The
// profiler's overhead is in the figures, so compare paths with each other, not with the
// throughput table's CPU line (docs/benchmarks.md, "Gateway").
//
// Run: BENCH_CLIENTS=process BENCH_PROFILE=moderated node --cpu-prof --cpu-prof-dir=/tmp/prof \
//        --import tsx bench/gateway.ts
//      npx tsx bench/profile-stages.ts /tmp/prof <deliveries, as the bench printed them>
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const STAGES: readonly (readonly [string, (frame: CallFrame) => boolean])[] = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['start-up (loading modules)', (f) => /modules\/(esm|cjs)|source_map|cjs-module-lexer|\/tsx\/|esbuild/.test(f.url)],
  ['SQLite: rows, commits, grants', (f) => /better-sqlite3|server\/store\//.test(f.url)],
  ['socket writes', (f) => ['writev', 'writevGeneric', 'writeGeneric'].includes(f.functionName)],
  [
    'strict read: JSON, duplicate keys, schema',
    (f) => /strict-json|\/zod\/|shared\/aor\/(envelope|decide-candidate)/.test(f.url),
  ],
  [
    'gateway: decision, recent candidates, queue',
    (f) =>
      /server\/gateway\/|shared\/aor\/(grant-check|mic-grants|control-envelopes)/.test(f.url) ||
      f.functionName === 'hash',
  ],
  ['history recorder: lenient read, columns', (f) => /server\/rooms\//.test(f.url)],
  [
    'broker: parse, ACL, route, deliver',
    (f) =>
      /aedes|mqtt-packet|qlobber|mqemitter|\/bl\/|\/debug\/|fast(parallel|series|fall)|reusify|hyperid|server\/mqtt\/|shared\/aor\/topics/.test(
        f.url,
      ),
  ],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
];
const OTHER = 'other: Node internals, promise jobs, timers, the bench';

/** The largest profile in `dir` (the main thread's: the checkpoint worker's is small). */
function mainProfile(dir: string): Profile {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  const largest = files.map((f) => join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  return JSON.parse(readFileSync(largest, 'utf8')) as Profile;
}

function stageTimes(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const stageOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = stageOf.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const hit = STAGES.find(([, test]) => test(node.callFrame));
    const url = node.callFrame.url;
    // Node's own frames (no url, or node:) take their caller's stage; anything else is "other".
    const parent = parentOf.get(id);
    const stage = hit
      ? hit[0]
      : (url === '' || url.startsWith('node:')) && parent !== undefined
        ? classify(parent)
        : OTHER;
    stageOf.set(id, stage);
    return stage;
  };
  const times = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const stage = classify(id);
    times.set(stage, (times.get(stage) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return times;
}

const [dir, deliveriesArg] = process.argv.slice(2);
const deliveries = Number(deliveriesArg);
if (!dir || !Number.isFinite(deliveries) || deliveries <= 0) {
  console.error('usage: tsx bench/profile-stages.ts <profile dir> <deliveries>');
  process.exit(2);
}
const times = stageTimes(mainProfile(dir));
const notWork = new Set(['idle', 'start-up (loading modules)']);
const busy = [...times].filter(([stage]) => !notWork.has(stage)).reduce((sum, [, t]) => sum + t, 0);
console.log(`busy: ${(busy / deliveries).toFixed(1)} µs per delivery (profiled; idle and start-up not counted)`);
for (const [stage, t] of [...times].sort((a, b) => b[1] - a[1])) {
  if (!notWork.has(stage)) console.log(`${(t / deliveries).toFixed(2).padStart(7)}  ${stage}`);
}
