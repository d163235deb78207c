// Verifying a 10,000-entry transparency log in the browser: the console's whole
// check (chain, commitments, both parties' signatures in WebCrypto batches) against hashing alone
// and signature verification alone, measured in the same Chromium page (bench/negotiation-log-core.ts).
// Run: npm run bench:negotiation-browser  (SIZE=… to change the log's length; CHROMIUM_PATH)
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { buildLog } from './negotiation-log-fixture';
import type { LogFigures } from './negotiation-log-core';
import { printBenchResult } from './bench-result';

const SIZE = Number(process.env.SIZE ?? 10_000);
const ROUNDS = 3;
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const t0 = performance.now();
const entries: unknown = buildLog(SIZE);
console.log(
  `built a log of ${SIZE.toLocaleString('en-US')} co-signed entries in ${((performance.now() - t0) / 1000).toFixed(1)} s (Node)`,
);

const bundle = await build({
  configFile: false,
  logLevel: 'silent',
  resolve: { alias: { '@shared': here('../shared'), '@web': here('../web') } },
  build: {
    write: false,
    minify: true,
    lib: { entry: here('./negotiation-log-core.ts'), formats: ['iife'], name: 'LogBench' },
  },
});
const output = (Array.isArray(bundle) ? bundle[0] : bundle) as { output: { type: string; code?: string }[] };
const code = output.output.find((chunk) => chunk.type === 'chunk')?.code;
if (code === undefined) throw new Error('no bundle');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage();
  await page.addScriptTag({ content: code });
  const runs: LogFigures[] = [];
  // A warm-up round, then the median of ROUNDS.
  for (let round = 0; round <= ROUNDS; round++) {
    const figures = await page.evaluate(
      (log) =>
        (
          globalThis as unknown as { LogBench: { runLogBench: (e: unknown) => Promise<LogFigures> } }
        ).LogBench.runLogBench(log),
      entries as never,
    );
    if (!figures.ok) throw new Error('the chain did not verify');
    if (round > 0) runs.push(figures);
  }
  const median = (pick: (f: LogFigures) => number) =>
    runs.map(pick).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  const hash = median((f) => f.hashMs);
  const sigs = median((f) => f.signaturesMs);
  const whole = median((f) => f.wholeMs);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(8);
  console.log(
    `Chromium ${browser.version()}, ${SIZE.toLocaleString('en-US')} entries, ${runs[0]!.signatures.toLocaleString('en-US')} signatures, median of ${ROUNDS}:`,
  );
  console.log(`  SHA-256 of each entry's JCS link alone        ${s(hash)}`);
  console.log(`  WebCrypto Ed25519 over every signature alone  ${s(sigs)}`);
  console.log(
    `  the console's whole check (verifyChain + bulk signatures)  ${s(whole)}   = ${(whole / sigs).toFixed(2)}× signatures alone, ${(whole / hash).toFixed(1)}× hashing alone`,
  );
  const metric = `the console's whole log check, ${SIZE.toLocaleString('en-US')} entries, Chromium`;
  printBenchResult('negotiation-browser', [
    { metric, value: whole, unit: 'ms', baseline: 'WebCrypto signatures alone', baselineValue: sigs },
    { metric, value: whole, unit: 'ms', baseline: 'SHA-256 hashing alone', baselineValue: hash },
  ]);
} finally {
  await browser.close();
}
