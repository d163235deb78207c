// Finding a common slot: 50 participants' free time over a month, candidate starts
// every 15 minutes, a 60-minute meeting, 10 required participants and 40 optional. shared/oacop's
// intersectAvailability (one bit set per participant) against two baselines in the same run, on
// the same inputs, alternated round by round:
//   - grid scan: each start, each participant, a linear search of its free intervals (the
//     obvious implementation, and the brute force the unit tests compare against);
//   - interval lists: pairwise sweep-intersection of the required participants' sorted lists, then
//     each optional participant checked by binary search at each start inside the common stretches.
// All three must return the same best slot; the bench stops if they do not. The workload and the
// three implementations are in scheduling-core.ts, which runs in Node and, bundled by Vite, in
// Chromium (the console's engine), one after the other.
// Run: npm run bench:scheduling (Node, then the same bundle in Chromium, CHROMIUM_PATH).
import { build } from 'vite';
import { chromium } from '@playwright/test';
import { printBenchResult, type BenchFigure } from './bench-result';
import { ITERATIONS, ROUNDS, runSchedulingBench, type BenchFigures } from './scheduling-core';

function print(where: string, m: BenchFigures): void {
  console.log(
    `${where}: shared/oacop bit sets      ${m.oacop.toFixed(2)} ms  (median of ${ROUNDS} rounds × ${ITERATIONS})`,
  );
  console.log(
    `${where}: grid scan (linear search)  ${m.grid.toFixed(2)} ms  → ${(m.grid / m.oacop).toFixed(1)}× slower`,
  );
  console.log(
    `${where}: interval lists (sweep)     ${m.lists.toFixed(2)} ms  → ${(m.lists / m.oacop).toFixed(1)}× the time of shared/oacop`,
  );
}

const node = runSchedulingBench();
console.log(
  `${node.participants} participants (${node.required} required), ${node.freeIntervals} free intervals, ${node.starts} candidate starts (15 min) over 30 days, 60-minute meeting`,
);
console.log(
  `best slot ${new Date(node.best.start).toISOString()} with ${node.best.optional} optional participants free (all three agree)`,
);
print(`node ${process.version}`, node);

// The same module bundled for the browser (Vite, as the console is) and run in Chromium.
const bundle = await build({
  configFile: false,
  logLevel: 'silent',
  build: {
    write: false,
    minify: false,
    lib: {
      entry: new URL('./scheduling-core.ts', import.meta.url).pathname,
      formats: ['iife'],
      name: 'SchedulingBench',
    },
  },
});
const output = (Array.isArray(bundle) ? bundle[0] : bundle) as { output: { type: string; code?: string }[] };
const code = output.output.find((chunk) => chunk.type === 'chunk')?.code;
if (code === undefined) throw new Error('no bundle');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage();
  await page.addScriptTag({ content: code });
  const inBrowser = await page.evaluate(() =>
    (
      globalThis as unknown as { SchedulingBench: { runSchedulingBench: () => BenchFigures } }
    ).SchedulingBench.runSchedulingBench(),
  );
  if (JSON.stringify(inBrowser.best) !== JSON.stringify(node.best)) throw new Error('Chromium found another best slot');
  print(`chromium ${browser.version()}`, inBrowser);
  const figures = (where: string, m: BenchFigures): BenchFigure[] => [
    {
      metric: `shared/oacop common slot, ${where}`,
      value: m.oacop,
      unit: 'ms',
      baseline: 'grid scan',
      baselineValue: m.grid,
    },
    {
      metric: `shared/oacop common slot, ${where}`,
      value: m.oacop,
      unit: 'ms',
      baseline: 'interval lists',
      baselineValue: m.lists,
    },
  ];
  printBenchResult('scheduling', [...figures('Node', node), ...figures('Chromium', inBrowser)]);
} finally {
  await browser.close();
}
