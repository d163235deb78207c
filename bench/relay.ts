// The Agora relay's cost beyond cryptography, and long-poll wake-up delays.
//   1. Signed ingest rate (the whole POST /events pipeline: JSON, version, schema, signature,
//      window, replay, ttl, thread machine, SQLite commit) against raw node:crypto verification
//      with a cached KeyObject over the same envelopes, alternated in the same run → ratio.
//   2. With 1,000 long-polls waiting over real HTTP, events at 200/s to random waiters: delay
//      from the POST to the waiter's response (p50, p99); then one event every waiter takes.
// Run: npm run bench:relay
// BENCH_CLIENTS=process runs the long-poll clients and their sender in a forked process of their
// own (bench/relay-clients.ts), as agents run; BENCH_CLIENTS=both runs 2 once in each, one after
// the other, on a fresh store each. BENCH_RELAY_ONLY=wakeups runs 2(a) alone (no ingest, no (b)).
// Any failed request, lost event or wait past its deadline ends the run with exit 1 and the reason
// (bench/deadline.ts); the last line on stdout is the BENCH_RESULT line for `npm run bench`.
// First: the in-process server logs nothing, as in tests (LOG_LEVEL shows it).
import '../server/test-support/quiet-logs';
import { verify as nodeVerify } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { testApp } from '../server/test-support/test-app';
import { UNLIMITED_HTTP_LIMITS } from '../server/http/limits';
import { systemClock } from '../server/clock';
import { createRelayServices } from '../server/relay/relay-services';
import { SqliteStore } from '../server/store/sqlite/sqlite-store';
import { failBench, failOnUnhandled, printBenchResult, type BenchFigure } from './bench-result';
import { waitUntil } from './deadline';
import { startRelayClients, type ClientsMode } from './relay-clients';
import { party, signedRequest } from './relay-envelopes';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

async function ingestRatio(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-bench-relay-'));
  // As the server opens it (store/open-store.ts): WAL checkpoints on their worker thread.
  const store = new SqliteStore({ file: join(dir, 'switchboard.sqlite'), checkpointInWorker: true });
  const services = createRelayServices({ store: store.relay, clock: systemClock });
  const clients = Array.from({ length: 50 }, (_, i) => party(i + 1));
  const batch = 2000;
  const rounds = 5;
  const verifyRates: number[] = [];
  const sequentialRates: number[] = [];
  const concurrentRates: number[] = [];
  const fresh = () =>
    Array.from({ length: batch }, (_, i) => signedRequest(clients[i % clients.length]!, undefined, Date.now()));
  const ingest = async (envelopes: ReturnType<typeof fresh>, inFlight: number) => {
    const start = performance.now();
    for (let i = 0; i < envelopes.length; i += inFlight) {
      const posted = await Promise.all(
        envelopes.slice(i, i + inFlight).map((e) => services.relay.post(e.text, Buffer.byteLength(e.text))),
      );
      for (const p of posted) if (!p.ok || p.duplicate) throw new Error(`ingest refused: ${JSON.stringify(p)}`);
    }
    return batch / ((performance.now() - start) / 1000);
  };
  for (let round = 0; round <= rounds; round++) {
    const envelopes = fresh();
    const start = performance.now();
    for (const e of envelopes)
      if (!nodeVerify(null, e.canonical, e.publicKey, e.sig)) throw new Error('raw verify refused');
    const verifyRate = batch / ((performance.now() - start) / 1000);
    const sequential = await ingest(envelopes, 1);
    const concurrent = await ingest(fresh(), 64);
    if (round === 0) continue; // warm-up
    verifyRates.push(verifyRate);
    sequentialRates.push(sequential);
    concurrentRates.push(concurrent);
  }
  const v = median(verifyRates);
  const one = median(sequentialRates);
  const many = median(concurrentRates);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(8);
  console.log(
    `raw node:crypto verify (cached KeyObject)        ${fmt(v)} envelopes/s  (median of ${rounds} rounds of ${batch}, alternated)`,
  );
  console.log(
    `relay ingest, 64 posts in flight (group commit)  ${fmt(many)} envelopes/s  ratio ${(many / v).toFixed(2)}`,
  );
  console.log(
    `relay ingest, one post at a time                 ${fmt(one)} envelopes/s  ratio ${(one / v).toFixed(2)}`,
  );
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  const baseline = { unit: 'envelopes/s', baseline: 'raw node:crypto verify', baselineValue: v };
  return [
    { metric: 'relay ingest, 64 posts in flight', value: many, ...baseline },
    { metric: 'relay ingest, one post at a time', value: one, ...baseline },
  ];
}

async function longPollDelays(mode: ClientsMode, skipFollow: boolean): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-bench-relay-'));
  // As the server opens it (store/open-store.ts): WAL checkpoints on their worker thread.
  const store = new SqliteStore({ file: join(dir, 'switchboard.sqlite'), checkpointInWorker: true });
  const services = createRelayServices({ store: store.relay, clock: systemClock });
  const app = testApp({
    staticDir: '/nonexistent',
    store,
    relay: { services, demo: false, demoSeed: 1 },
    limits: UNLIMITED_HTTP_LIMITS,
  });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clients = await startRelayClients(mode, {
    headSeq: () => store.relay.headSeq(),
    until: (waiting) =>
      waitUntil(
        () => services.feed.waiting >= waiting,
        30_000,
        () => `${waiting} long-polls waiting in the feed (${services.feed.waiting} are)`,
      ),
  });
  const r = await clients.run(base, skipFollow);
  const where = mode === 'process' ? 'clients in their own process' : "clients in the server's process";
  console.log(
    `\n${r.waiters} long-polls waiting on their own inbox (${where}); ${r.rate} events/s offered (${r.achieved.toFixed(0)} achieved) for ${r.seconds} s, each to one waiter:`,
  );
  console.log(
    `  POST → that waiter's response   p50 ${percentile(r.delays, 50).toFixed(2)} ms   p99 ${percentile(r.delays, 99).toFixed(2)} ms   max ${Math.max(...r.delays).toFixed(2)} ms`,
  );
  if (r.each && r.last) {
    console.log(`${r.waiters} long-polls following one sender, 20 events each taken by all of them:`);
    console.log(
      `  POST → each waiter's response    p50 ${percentile(r.each, 50).toFixed(2)} ms   p99 ${percentile(r.each, 99).toFixed(2)} ms`,
    );
    console.log(
      `  POST → the last of the ${r.waiters}        p50 ${percentile(r.last, 50).toFixed(2)} ms   max ${Math.max(...r.last).toFixed(2)} ms`,
    );
  }

  services.feed.close();
  await clients.drain();
  server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const figures: BenchFigure[] = [
    {
      metric: `wake-up p99, ${r.waiters.toLocaleString('en-US')} waiters, clients ${mode} (aim ≤ 10 ms)`,
      value: percentile(r.delays, 99),
      unit: 'ms',
      note: `p50 ${ms(percentile(r.delays, 50))}; ${r.achieved.toFixed(0)} of ${r.rate} events/s achieved`,
    },
  ];
  if (r.each && r.last)
    figures.push({
      metric: `one event to all ${r.waiters.toLocaleString('en-US')} followers, the last one's p50, clients ${mode}`,
      value: percentile(r.last, 50),
      unit: 'ms',
      note: `each follower p50 ${ms(percentile(r.each, 50))}, p99 ${ms(percentile(r.each, 99))}`,
    });
  return figures;
}

const clientsEnv = process.env.BENCH_CLIENTS ?? 'inline';
if (!['inline', 'process', 'both'].includes(clientsEnv))
  throw new Error(`BENCH_CLIENTS must be inline, process or both, not ${clientsEnv}`);
const wakeupsOnly = process.env.BENCH_RELAY_ONLY === 'wakeups';
if (process.env.BENCH_RELAY_ONLY !== undefined && !wakeupsOnly)
  throw new Error(`BENCH_RELAY_ONLY must be wakeups, not ${process.env.BENCH_RELAY_ONLY}`);
failOnUnhandled('relay');
try {
  const figures = wakeupsOnly ? [] : await ingestRatio();
  for (const mode of clientsEnv === 'both' ? (['inline', 'process'] as const) : [clientsEnv as ClientsMode])
    figures.push(...(await longPollDelays(mode, wakeupsOnly)));
  printBenchResult('relay', figures);
} catch (error) {
  failBench('relay', error);
}
process.exit(0);
