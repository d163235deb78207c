// The negotiation service's speed, each figure against a baseline measured in
// the same run:
//   1. Server transitions per second over real HTTP (in-process server, keep-alive clients):
//      counters and acceptances through the whole pipeline (body, JSON, store read, zod,
//      node:crypto signature check, state machine, compare-and-set save, log append on accept)
//      against verifying the same signatures alone with the server's DidVerifier (cached keys).
//   2. Verifying a transparency log of 10,000 co-signed entries with the shared code
//      (verifyChain: links, hashes, every field commitment, both signatures; noble, as a
//      browser runs it), against SHA-256 hashing alone over the same link bytes.
// Run: npm run bench:negotiation (about 5 minutes). Env: NEGOTIATION_ROUNDS (5) timed rounds of
// transitions, NEGOTIATION_LOG (10,000) entries in the log of 2.
// First: the in-process server logs nothing, as in tests (LOG_LEVEL shows it).
import '../server/test-support/quiet-logs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { testApp } from '../server/test-support/test-app';
import { systemClock } from '../server/clock';
import { DidVerifier } from '../server/crypto/node-verifier';
import { NegotiationService } from '../server/negotiation/negotiation-service';
import { SqliteStore } from '../server/store/sqlite/sqlite-store';
import { encodeBase64url } from '../shared/crypto/base64url';
import { canonicalBytes } from '../shared/crypto/jcs';
import { sha256 } from '../shared/crypto/sha256';
import { signingBytes } from '../shared/crypto/signed-document';
import { unwrap } from '../shared/errors';
import { agreementOnAcceptance } from '../shared/negotiation/apply-acceptance';
import type { Acceptance, OpenDocument, Proposal } from '../shared/negotiation/documents';
import { DEFAULT_LIMITS } from '../shared/negotiation/manifest';
import { openNegotiation } from '../shared/negotiation/open-negotiation';
import { advance, receivedAt } from '../shared/negotiation/state';
import { linkOf, verifyChain } from '../shared/negotiation/transparency-log';
import { buildLog, party, signed, signStatement, type Party } from './negotiation-log-fixture';
import { UNLIMITED_HTTP_LIMITS } from '../server/http/limits';
import { failBench, printBenchResult, type BenchFigure } from './bench-result';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(9);

function post(agent: http.Agent, url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One negotiation's whole life, pre-signed: open, rounds 1..8 alternating, the acceptance of round 8. */
function script(n: number, a: Party, b: Party, now: number) {
  const id = `neg_bench${process.pid}x${n}`;
  const open = signed<Omit<OpenDocument, 'signature'>>(
    {
      type: 'open',
      negotiation_id: id,
      parties: [a.did, b.did],
      opened_by: a.did,
      category: 'pricing',
      confidentiality: { [a.did]: 'public', [b.did]: 'internal' },
      at: new Date(now).toISOString(),
    },
    a,
  ) as OpenDocument;
  const proposals: Proposal[] = [];
  for (let round = 1; round <= 8; round++) {
    const from = round % 2 ? a : b;
    const to = round % 2 ? b : a;
    proposals.push(
      signed<Omit<Proposal, 'signature'>>(
        {
          proposal_id: `prp_${n}r${round}`,
          negotiation_id: id,
          previous_proposal_id: round === 1 ? null : `prp_${n}r${round - 1}`,
          from: from.did,
          to: to.did,
          round,
          category: 'pricing',
          terms: { price_per_call_eur: (0.003 + round / 10_000).toFixed(4), calls_per_month: 100_000 },
          valid_until: new Date(now + 3_600_000).toISOString(),
        },
        from,
      ) as Proposal,
    );
  }
  // The acceptance needs the state the server will hold: rebuild it without verifying (the server does).
  let state = unwrap(openNegotiation(open, { now, limits: DEFAULT_LIMITS, verify: () => true }));
  for (const p of proposals)
    state = advance(state, { type: 'propose', document: p, received_at: receivedAt(now) }, 'COUNTERED');
  const at = new Date(now).toISOString();
  const saltSeed = encodeBase64url(sha256(canonicalBytes(['bench-salt', n]) as Uint8Array).slice(0, 32));
  const agreement = agreementOnAcceptance(state, proposals[7]!, at, saltSeed);
  const accept = signed<Omit<Acceptance, 'signature'>>(
    {
      type: 'accept',
      negotiation_id: id,
      proposal_id: proposals[7]!.proposal_id,
      by: a.did,
      at,
      salt_seed: saltSeed,
      agreement_signature: signStatement(agreement, a),
    },
    a,
  ) as Acceptance;
  return { id, open, proposals, accept };
}

async function transitionsPerSecond(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-bench-negotiation-'));
  const store = new SqliteStore({ file: join(dir, 'switchboard.sqlite') });
  const verifier = new DidVerifier();
  const service = new NegotiationService({ store: store.negotiations, clock: systemClock, verifier });
  // It measures throughput: 1,500 opens from one address would hit the default open budget.
  const app = testApp({ staticDir: '/nonexistent', store, negotiations: service, limits: UNLIMITED_HTTP_LIMITS });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const parties = Array.from({ length: 40 }, (_, i) => party(i + 1));
  const PER_ROUND = 250; // negotiations per round: 250 × 8 transitions (7 counters + 1 acceptance)
  const IN_FLIGHT = 32;
  const rounds = Number(process.env.NEGOTIATION_ROUNDS ?? 5);
  const verifyRates: number[] = [];
  const httpRates: number[] = [];
  let made = 0;
  for (let round = 0; round <= rounds; round++) {
    const now = Date.now();
    const scripts = Array.from({ length: PER_ROUND }, () => {
      const n = made++;
      return script(n, parties[n % 40]!, parties[(n + 1) % 40]!, now);
    });
    for (const s of scripts) {
      if ((await post(agent, `${base}/oap/negotiation/open`, JSON.stringify(s.open))) !== 201)
        throw new Error('open refused');
      if ((await post(agent, `${base}/oap/negotiation/${s.id}/propose`, JSON.stringify(s.proposals[0]))) !== 200)
        throw new Error('first proposal refused');
    }
    // The steps measured: rounds 2..8 and the acceptance, each document a transition.
    const steps: [string, unknown][][] = [
      ...[1, 2, 3, 4, 5, 6, 7].map((k) =>
        scripts.map((s) => [`${base}/oap/negotiation/${s.id}/propose`, s.proposals[k]] as [string, unknown]),
      ),
      scripts.map((s) => [`${base}/oap/negotiation/${s.id}/accept`, s.accept] as [string, unknown]),
    ];
    const bodies = steps.map((wave) => wave.map(([url, doc]) => [url, JSON.stringify(doc)] as const));
    const transitions = bodies.reduce((n, w) => n + w.length, 0);

    // Baseline: the same documents' signatures alone (the acceptance's two), same verifier.
    const checks = steps.flat().flatMap(([, doc]) => {
      const d = doc as Record<string, unknown> & { signature: string };
      const signer = ('from' in d ? d.from : d.by) as string;
      return [{ signer, bytes: signingBytes(d, 'signature'), sig: Buffer.from(d.signature, 'base64url') }];
    });
    let start = performance.now();
    for (const c of checks) if (!verifier.verify(c.signer, c.bytes, c.sig)) throw new Error('baseline verify refused');
    const verifyRate = checks.length / ((performance.now() - start) / 1000);

    start = performance.now();
    for (const wave of bodies) {
      for (let i = 0; i < wave.length; i += IN_FLIGHT) {
        const statuses = await Promise.all(wave.slice(i, i + IN_FLIGHT).map(([url, body]) => post(agent, url, body)));
        if (statuses.some((s) => s !== 200)) throw new Error(`transition refused: ${statuses.join(',')}`);
      }
    }
    const httpRate = transitions / ((performance.now() - start) / 1000);
    if (round === 0) continue; // warm-up
    verifyRates.push(verifyRate);
    httpRates.push(httpRate);
  }
  const v = median(verifyRates);
  const t = median(httpRates);
  console.log(
    `signature verification alone (node:crypto, cached key) ${fmt(v)} /s  (median of ${rounds} rounds, alternated)`,
  );
  console.log(
    `server transitions over HTTP, ${IN_FLIGHT} in flight           ${fmt(t)} /s  ratio ${(t / v).toFixed(3)}  (${PER_ROUND * 8} per round: 7 counters + 1 acceptance each)`,
  );
  agent.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return [
    {
      metric: `server transitions over HTTP, ${IN_FLIGHT} in flight`,
      value: t,
      unit: '/s',
      baseline: 'signature verification alone',
      baselineValue: v,
    },
  ];
}

function logVerification(): BenchFigure[] {
  const SIZE = Number(process.env.NEGOTIATION_LOG ?? 10_000);
  const entries = buildLog(SIZE);
  const linkBytes = entries.map((e) => canonicalBytes(linkOf(e)));
  const verifier = new DidVerifier();
  const nodeCheck = (did: string, m: Uint8Array, s: Uint8Array) => verifier.verify(did, m, s);
  const hashRates: number[] = [];
  const chainRates: number[] = [];
  const chainNodeRates: number[] = [];
  for (let round = 0; round <= 3; round++) {
    let start = performance.now();
    for (const bytes of linkBytes) sha256(bytes);
    const hashRate = SIZE / ((performance.now() - start) / 1000);
    start = performance.now();
    const verdict = verifyChain(entries);
    if (!verdict.ok) throw new Error(`chain refused: ${verdict.error.message}`);
    const chainRate = SIZE / ((performance.now() - start) / 1000);
    start = performance.now();
    if (!verifyChain(entries, nodeCheck).ok) throw new Error('chain refused (node)');
    const chainNodeRate = SIZE / ((performance.now() - start) / 1000);
    if (round === 0) continue;
    hashRates.push(hashRate);
    chainRates.push(chainRate);
    chainNodeRates.push(chainNodeRate);
  }
  const h = median(hashRates);
  const c = median(chainRates);
  const cn = median(chainNodeRates);
  console.log(
    `SHA-256 of each entry's JCS link alone (noble)          ${fmt(h)} entries/s  (${SIZE.toLocaleString('en-US')} entries, median of 3)`,
  );
  console.log(
    `verifyChain, shared code, noble signatures (browser)   ${fmt(c)} entries/s  ratio ${(c / h).toFixed(4)}  whole log ${(SIZE / c).toFixed(2)} s`,
  );
  console.log(
    `verifyChain, node:crypto signatures injected (server)  ${fmt(cn)} entries/s  ratio ${(cn / h).toFixed(4)}  whole log ${(SIZE / cn).toFixed(2)} s`,
  );
  const hashing = { unit: 'entries/s', baseline: 'SHA-256 of the links alone', baselineValue: h };
  return [
    { metric: `verifyChain, ${SIZE.toLocaleString('en-US')} entries, noble (browser code)`, value: c, ...hashing },
    { metric: `verifyChain, ${SIZE.toLocaleString('en-US')} entries, node:crypto (server)`, value: cn, ...hashing },
  ];
}

try {
  printBenchResult('negotiation', [...(await transitionsPerSecond()), ...logVerification()]);
} catch (error) {
  failBench('negotiation', error);
}
