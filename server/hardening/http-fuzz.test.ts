// HTTP fuzz: every route of the real app, over a real SQLite store and a real
// embedded broker, fed hostile requests by fast-check from fixed seeds. Every route in
// `app.routes` must have a generator here (a new endpoint without one fails the first test).
// Each case must answer a coded 4xx (`{ code, … }`), never a 5xx, and change no row of any table
// (a SHA-256 of every table before and after each case). Cases per surface are printed at the end
// and reported in docs/security.md.
import { AgentService } from '../agents/agent-service';
import { embeddedAgentBroker } from '../agents/agent-broker';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test-support/test-app';
import { NegotiationParty, seededBytes } from '@agents/negotiation/negotiation-client';
import { negotiationIdentity } from '../demo/demo-identity';
import { mulberry32 } from '../demo/prng';
import { UNLIMITED_HTTP_LIMITS } from '../http/limits';
import { PresenceTracker } from '../rooms/presence-tracker';
import { sessionCookie } from '../test-support/sessions';
import { startRoomHarness, type RoomHarness } from '../test-support/room-harness';
import { client, fuzzEnvelopes, json, type BadRequest, type Surface } from './http-fuzz-arbitraries';
import { fuzzSurfaces } from './http-fuzz-surfaces';
import { McpSessions } from '../mcp/mcp-sessions';
import { agentVerifier } from '../runtime/agent-verifier';
import { changedTables, openTableDigest } from './table-digest';

const SEED = 9_2026;

let dir: string;
let h: RoomHarness;
let presence: PresenceTracker;
let app: ReturnType<typeof testApp>;
let digest: ReturnType<typeof openTableDigest>;
let origin: string;
let facilitator: string;
let observer: string;
const casesRun = new Map<string, number>();
const statuses = new Map<string, Map<number, number>>();

let negotiationId = '';
const rng = mulberry32(11);
let buyer: NegotiationParty;
let seller: NegotiationParty;
let stranger: NegotiationParty;
const envelopes = fuzzEnvelopes(() => h.clock.now);
const { envelope } = envelopes;

const surfaces = () =>
  fuzzSurfaces({
    origin,
    facilitator,
    observer,
    negotiationId,
    envelopes,
    now: () => h.clock.now,
    buyer,
    seller,
    stranger,
  });

async function send(r: BadRequest): Promise<Response> {
  return app.request(r.path, {
    method: r.method,
    headers: r.headers ?? {},
    ...(r.body === undefined ? {} : { body: r.body as BodyInit }),
  });
}

async function check(key: string, surface: Surface, r: BadRequest): Promise<void> {
  const before = digest.digest();
  const res = await send(r);
  const text = await res.text();
  const after = digest.digest();
  const tally = statuses.get(key) ?? new Map<number, number>();
  tally.set(res.status, (tally.get(res.status) ?? 0) + 1);
  statuses.set(key, tally);
  casesRun.set(key, (casesRun.get(key) ?? 0) + 1);
  const where = `${key} [${r.label}] ${r.method} ${r.path.slice(0, 120)} → ${res.status} ${text.slice(0, 200)}`;
  expect(res.status, where).toBeLessThan(500);
  if (surface.expect !== 'ignored' || res.status >= 400) {
    expect(res.status, where).toBeGreaterThanOrEqual(400);
    const body = JSON.parse(text) as { code?: unknown };
    expect(typeof body.code, where).toBe('string');
  }
  const changed = changedTables(before, after).filter((t) => !surface.mayWrite?.some((m) => t.startsWith(`${m} `)));
  expect(changed, `${where}: wrote to`).toEqual([]);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-http-fuzz-'));
  const staticDir = join(dir, 'static');
  rmSync(staticDir, { recursive: true, force: true });
  await import('node:fs').then((fs) => fs.mkdirSync(staticDir));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Switchboard</title>');
  h = await startRoomHarness({ dataDir: dir });
  presence = new PresenceTracker(h.broker, () => h.clock.now);
  const clock = { now: () => h.clock.now };
  app = testApp({
    staticDir,
    store: h.store,
    clock,
    rooms: { store: h.store, clock, rooms: h.rooms, presence, gateway: h.gateway },
    agents: {
      service: new AgentService({ store: h.store, clock, broker: embeddedAgentBroker(h.broker), presence }),
      mqttUrl: () => h.url,
    },
    limits: UNLIMITED_HTTP_LIMITS,
    mcp: new McpSessions({ store: h.store, clock, brokerUrl: () => h.url, verifyAgent: agentVerifier(h.store.access) }),
  });
  origin = 'http://localhost';
  facilitator = await sessionCookie(h.store, 'did:key:z6MkFuzzFacilitator', 'facilitator', h.clock.now);
  observer = await sessionCookie(h.store, 'did:key:z6MkFuzzObserver', 'observer', h.clock.now);
  await h.rooms.create({ id: 'ops', name: 'Operations', moderation: 'auto' });
  const fetchApp = (input: string, init?: RequestInit) => app.request(input, init);
  const identity = (key: string) =>
    new NegotiationParty(negotiationIdentity(1, key, key), fetchApp, '', () => h.clock.now, seededBytes(rng));
  buyer = identity('buyer');
  seller = identity('seller');
  stranger = identity('stranger');
  negotiationId = await buyer.open(seller.did, { category: 'pricing', mine: 'public', theirs: 'public' });
  // A started Agora thread (REQUEST, no OFFER yet) for the out-of-order cases.
  const opened = await app.request('/events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: json(envelope('REQUEST', client, { thread: 'thr_open' })),
  });
  expect(opened.status).toBe(200);
  digest = openTableDigest(join(dir, 'switchboard.sqlite'));
});

afterAll(async () => {
  const rows = [...casesRun.entries()].map(
    ([key, n]) =>
      `${String(n).padStart(5)}  ${key}  ${[...(statuses.get(key) ?? new Map<number, number>()).entries()]
        .sort()
        .map(([s, c]) => `${s}×${c}`)
        .join(' ')}`,
  );
  console.log(
    `HTTP fuzz (seed ${SEED}): ${[...casesRun.values()].reduce((a, b) => a + b, 0)} cases over ${casesRun.size} surfaces\n${rows.join('\n')}`,
  );
  digest?.close();
  presence?.stop();
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTP fuzz: every route of the app', () => {
  it('has a generator for every route in app.routes (a new endpoint cannot escape)', () => {
    // ALL entries are middleware, but for /mcp: the MCP transport takes every method on one path.
    const routes = new Set(
      app.routes.filter((r) => r.method !== 'ALL' || r.path === '/mcp').map((r) => `${r.method} ${r.path}`),
    );
    const covered = new Set(Object.keys(surfaces()));
    expect(
      [...routes].filter((r) => !covered.has(r)),
      'routes without a fuzz generator',
    ).toEqual([]);
    expect(
      [...covered].filter((r) => !routes.has(r)),
      'generators for routes that no longer exist',
    ).toEqual([]);
    expect(routes.size).toBeGreaterThan(50);
  });

  it('answers every hostile request with a coded 4xx, never a 5xx, and writes nothing', async () => {
    // Every surface runs even after one fails, so one run lists every finding.
    const failures: string[] = [];
    for (const [key, surface] of Object.entries(surfaces())) {
      try {
        for (const r of surface.fixed ?? []) await check(key, surface, r);
        await fc.assert(
          fc.asyncProperty(surface.bad, async (r) => check(key, surface, r)),
          { seed: SEED, numRuns: surface.runs, endOnFailure: true },
        );
      } catch (error) {
        failures.push(
          `${key}: ${(error as Error).message.split('\n').find((l) => l.includes('→')) ?? (error as Error).message.slice(0, 400)}`,
        );
      }
    }
    expect(failures).toEqual([]);
    // The process is alive and still serves a good request.
    expect((await app.request('/health')).status).toBe(200);
  }, 600_000);
});
