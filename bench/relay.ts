// The Agora relay's cost beyond cryptography, and long-poll wake-up delays (issue 5 item 9).
//   1. Signed ingest rate (the whole POST /events pipeline: JSON, version, schema, signature,
//      window, replay, ttl, thread machine, SQLite commit) against raw node:crypto verification
//      with a cached KeyObject over the same envelopes, alternated in the same run → ratio.
//   2. With 1,000 long-polls waiting over real HTTP, events at 200/s to random waiters: delay
//      from the POST to the waiter's response (p50, p99); then one event every waiter takes.
// Run: npm run bench:relay
import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from '../server/app';
import { UNLIMITED_HTTP_LIMITS } from '../server/http/limits';
import { systemClock } from '../server/clock';
import { createRelayServices } from '../server/relay/relay-services';
import { SqliteStore } from '../server/store/sqlite/sqlite-store';
import { encodeDidKey } from '../shared/crypto/did-key';
import { keyPairFromSeed } from '../shared/crypto/ed25519';
import { canonicalize } from '../shared/crypto/jcs';

const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

interface Party {
  readonly did: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

function party(n: number): Party {
  const seed = new Uint8Array(32).fill(0).map((_, i) => (i === 0 ? n & 0xff : i === 1 ? n >> 8 : 7));
  const pair = keyPairFromSeed(seed);
  return {
    did: encodeDidKey(pair.publicKey),
    privateKey: createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, Buffer.from(seed)]), format: 'der', type: 'pkcs8' }),
    publicKey: createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(pair.publicKey)]), format: 'der', type: 'spki' }),
  };
}

let counter = 0;
function signedRequest(from: Party, to: Party | undefined, now: number) {
  counter++;
  const unsigned = {
    version: '1.0',
    id: `msg_bench_${process.pid}_${counter}`,
    ts: new Date(now).toISOString(),
    type: 'REQUEST',
    sender: { id: from.did, name: 'Bench client' },
    ...(to ? { recipient: { id: to.did } } : {}),
    payload: { request_id: `req_${counter}`, intent: 'translation.en_zh', params: { text: 'Hello world' }, constraints: { max_cost_usd: 0.01 } },
    thread: { id: `thread_bench_${counter}` },
    meta: { ttl: 300, hop: 0 },
  };
  const canonical = Buffer.from(canonicalize(unsigned));
  const sig = nodeSign(null, canonical, from.privateKey);
  return { text: JSON.stringify({ ...unsigned, sig: sig.toString('base64url') }), canonical, sig, publicKey: from.publicKey };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

async function ingestRatio(): Promise<void> {
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
  const fresh = () => Array.from({ length: batch }, (_, i) => signedRequest(clients[i % clients.length]!, undefined, Date.now()));
  const ingest = async (envelopes: ReturnType<typeof fresh>, inFlight: number) => {
    const start = performance.now();
    for (let i = 0; i < envelopes.length; i += inFlight) {
      const posted = await Promise.all(envelopes.slice(i, i + inFlight).map((e) => services.relay.post(e.text, Buffer.byteLength(e.text))));
      for (const p of posted) if (!p.ok || p.duplicate) throw new Error(`ingest refused: ${JSON.stringify(p)}`);
    }
    return batch / ((performance.now() - start) / 1000);
  };
  for (let round = 0; round <= rounds; round++) {
    const envelopes = fresh();
    const start = performance.now();
    for (const e of envelopes) if (!nodeVerify(null, e.canonical, e.publicKey, e.sig)) throw new Error('raw verify refused');
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
  console.log(`raw node:crypto verify (cached KeyObject)        ${fmt(v)} envelopes/s  (median of ${rounds} rounds of ${batch}, alternated)`);
  console.log(`relay ingest, 64 posts in flight (group commit)  ${fmt(many)} envelopes/s  ratio ${(many / v).toFixed(2)}`);
  console.log(`relay ingest, one post at a time                 ${fmt(one)} envelopes/s  ratio ${(one / v).toFixed(2)}`);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

/** One HTTP request over a keep-alive agent; resolves with the body text. */
function request(agent: http.Agent, url: string, method = 'GET', body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString()) : reject(new Error(Buffer.concat(chunks).toString()))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function longPollDelays(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-bench-relay-'));
  // As the server opens it (store/open-store.ts): WAL checkpoints on their worker thread.
  const store = new SqliteStore({ file: join(dir, 'switchboard.sqlite'), checkpointInWorker: true });
  const services = createRelayServices({ store: store.relay, clock: systemClock });
  const app = createApp({ staticDir: '/nonexistent', store, relay: { services, demo: false, demoSeed: 1 }, limits: UNLIMITED_HTTP_LIMITS });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const WAITERS = 1000;
  const agents = Array.from({ length: WAITERS }, (_, i) => party(1000 + i));
  const sender = party(999);
  const broadcaster = party(998);
  const arrived = new Map<string, (at: number) => void>();
  let stopping = false;

  // Each waiter long-polls from a cursor, forever, and reports each event it gets.
  const poll = async (name: string, filter: string) => {
    let since = `cur_${await store.relay.headSeq()}`;
    while (!stopping) {
      let text: string;
      try {
        text = await request(agent, `${base}/events?since=${since}&timeout=60${filter}`);
      } catch {
        return;
      }
      const page = JSON.parse(text) as { events: { id: string }[]; cursor: string };
      const at = performance.now();
      since = page.cursor;
      for (const e of page.events) arrived.get(`${e.id}|${name}`)?.(at);
    }
  };
  const until = async (waiting: number) => {
    while (services.feed.waiting < waiting) await new Promise((resolve) => setTimeout(resolve, 2));
  };

  // (a) 1,000 agents wait on their own inbox; 200 events/s for 10 s, each to one of them.
  const loops = agents.map((a) => poll(a.did, `&recipient=${encodeURIComponent(a.did)}`));
  await until(WAITERS);
  const delays: number[] = [];
  const RATE = 200;
  const SECONDS = 10;
  const pending: Promise<void>[] = [];
  const startAt = performance.now();
  for (let i = 0; i < RATE * SECONDS; i++) {
    const wait = startAt + (i * 1000) / RATE - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const target = agents[(i * 7919) % WAITERS]!;
    const e = signedRequest(sender, target, Date.now());
    const id = (JSON.parse(e.text) as { id: string }).id;
    const t0 = performance.now();
    pending.push(
      new Promise<void>((resolve) => {
        arrived.set(`${id}|${target.did}`, (at) => {
          delays.push(at - t0);
          resolve();
        });
      }),
    );
    void request(agent, `${base}/events`, 'POST', e.text);
  }
  await Promise.all(pending);
  const achieved = (RATE * SECONDS) / ((performance.now() - startAt) / 1000);
  console.log(`\n${WAITERS} long-polls waiting on their own inbox; ${RATE} events/s offered (${achieved.toFixed(0)} achieved) for ${SECONDS} s, each to one waiter:`);
  console.log(`  POST → that waiter's response   p50 ${percentile(delays, 50).toFixed(2)} ms   p99 ${percentile(delays, 99).toFixed(2)} ms   max ${Math.max(...delays).toFixed(2)} ms`);

  // (b) 1,000 more long-polls follow one sender; each of its events wakes every one of them.
  const followers = agents.map((a) => `${a.did}#follow`);
  const followLoops = followers.map((name) => poll(name, `&sender=${encodeURIComponent(broadcaster.did)}`));
  await until(2 * WAITERS);
  const each: number[] = [];
  const last: number[] = [];
  for (let i = 0; i < 20; i++) {
    await until(2 * WAITERS);
    const e = signedRequest(broadcaster, undefined, Date.now());
    const id = (JSON.parse(e.text) as { id: string }).id;
    const t0 = performance.now();
    const got = followers.map(
      (name) =>
        new Promise<number>((resolve) => {
          arrived.set(`${id}|${name}`, (at) => resolve(at - t0));
        }),
    );
    await request(agent, `${base}/events`, 'POST', e.text);
    const times = await Promise.all(got);
    each.push(...times);
    last.push(Math.max(...times));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log(`${WAITERS} long-polls following one sender, 20 events each taken by all of them:`);
  console.log(`  POST → each waiter's response    p50 ${percentile(each, 50).toFixed(2)} ms   p99 ${percentile(each, 99).toFixed(2)} ms`);
  console.log(`  POST → the last of the ${WAITERS}        p50 ${percentile(last, 50).toFixed(2)} ms   max ${Math.max(...last).toFixed(2)} ms`);

  stopping = true;
  services.feed.close();
  await Promise.allSettled([...loops, ...followLoops]);
  server.close();
  agent.destroy();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

await ingestRatio();
await longPollDelays();
process.exit(0);
