// The soak: the whole server in this process (startSwitchboard: embedded
// broker, gateway, history, presence, the HTTP app and the Agora relay) under agents, gateway
// traffic and long-polls together, loopback only, with memory sampled every second. Used by
// `npm run soak` (bench/soak.ts, minutes) and server/hardening/soak.test.ts (about 25 s in CI).
//
// Load, all through real clients:
// - AGENTS agents over MQTT/TCP publish `result` candidates one after another (each waits for its
//   PUBACK), every 10th of a type their grant refuses, and heartbeat every second;
// - a facilitator over MQTT/WebSocket (session cookie) grants each agent a fresh task before a
//   grant's 10,000 messages (the schema's maximum) run out;
// - a listener agent subscribed to rooms/+/public, the "public subscriber";
// - POLLERS HTTP clients long-poll GET /events while a poster sends signed Agora REQUESTs.
// Memory is the whole process: server and load generators together (an upper bound on the server).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashPassword } from '../auth/password';
import { loadConfig } from '../config';
import { startSwitchboard } from '../runtime/start-switchboard';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { sessionCookie } from '../test-support/sessions';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed } from '@shared/crypto/ed25519';

/** `gc()` without starting node with --expose-gc: the flag is set at run time, the function taken from a fresh context. */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();
import { signDocument } from '@shared/crypto/signed-document';

export interface SoakOptions {
  readonly seconds: number;
  readonly agents?: number;
  /** Candidates per second per agent, at most (each also waits for its PUBACK). */
  readonly ratePerAgent?: number;
  readonly pollers?: number;
  /** Signed Agora REQUESTs per second. */
  readonly agoraRate?: number;
  /** The first part of the run, not counted for heap growth (JIT, caches, SQLite page cache). */
  readonly warmupFraction?: number;
  readonly log?: (line: string) => void;
}

export interface MemorySample {
  readonly atS: number;
  readonly rssMb: number;
  readonly heapMb: number;
}

export interface SoakReport {
  readonly seconds: number;
  readonly samples: readonly MemorySample[];
  /**
   * The heap's floor (lowest sample: what survives garbage collection) in the first quarter after
   * warm-up and in the last quarter; a leak raises the floor, the GC sawtooth does not.
   */
  readonly heapAfterWarmupMb: number;
  readonly heapAtEndMb: number;
  readonly heapGrowthMb: number;
  readonly rssAfterWarmupMb: number;
  readonly rssAtEndMb: number;
  readonly candidatesAcked: number;
  readonly refusedByDesign: number;
  readonly rejectsSeen: number;
  readonly approved: number;
  readonly publicReceived: number;
  readonly missingFromHistory: number;
  readonly missingAtSubscriber: number;
  readonly heartbeats: number;
  readonly agoraPosted: number;
  /** The fewest posted REQUESTs any one poller received (every poller should get all). */
  readonly agoraLeastDelivered: number;
  readonly longPolls: number;
}

const ROOM = 'soak';
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const PER_GRANT = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const agentsCount = options.agents ?? 4;
  const rate = options.ratePerAgent ?? 50;
  const pollersCount = options.pollers ?? 20;
  const agoraRate = options.agoraRate ?? 20;
  const log = options.log ?? (() => undefined);
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-soak-'));
  const running = await startSwitchboard({
    ...loadConfig({}),
    host: '127.0.0.1',
    port: 0,
    mqttPort: 0,
    dataDir,
    demo: false,
    staticDir: join(dataDir, 'no-static'),
  });
  const clients: TestClient[] = [];
  let stopping = false;
  try {
    const { store } = running;
    await running.rooms.create({ id: ROOM, name: 'Soak', moderation: 'auto' });
    const agentIds = Array.from({ length: agentsCount }, (_, i) => `agent.soak${i}`);
    const hash = await hashPassword('soak-pw');
    for (const agentId of [...agentIds, 'agent.listener'])
      await store.access.putAgentCredential({ agentId, passwordHash: hash, createdAt: Date.now() });
    const cookie = await sessionCookie(store, FACILITATOR, 'facilitator');
    const facilitator = await connectClient(`${running.url.replace('http', 'ws')}/mqtt`, {
      wsOptions: { headers: { cookie, origin: running.url } },
    });
    clients.push(facilitator);

    const publicIds = new Set<string>();
    const listener = await connectClient(running.mqttUrl, { username: 'agent.listener', password: 'soak-pw' });
    clients.push(listener);
    listener.client.on('message', (topic, payload) => {
      if (topic === `rooms/${ROOM}/public`) publicIds.add((JSON.parse(payload.toString()) as { id: string }).id);
    });
    await listener.client.subscribeAsync(`rooms/${ROOM}/public`, { qos: 1 });

    const grantsIssued: { agentId: string; taskId: string }[] = [];
    const grant = async (agentId: string, taskId: string) => {
      const now = Math.floor(Date.now() / 1000);
      await facilitator.client.publishAsync(
        `rooms/${ROOM}/control`,
        JSON.stringify({
          id: `grant_${agentId}_${taskId}`,
          type: 'mic_grant',
          room_id: ROOM,
          from: { kind: 'user', id: FACILITATOR },
          ts: now,
          payload: {
            task_id: taskId,
            agent_id: agentId,
            max_messages: PER_GRANT,
            allowed_message_types: ['progress'],
            expires_at: now + 86_400,
          },
        }),
        { qos: 1 },
      );
      while (!(await store.rooms.getGrant(ROOM, agentId, taskId))) await sleep(5);
      grantsIssued.push({ agentId, taskId });
    };

    const counts = { acked: 0, refusedByDesign: 0, rejectsSeen: 0, heartbeats: 0, agoraPosted: 0, longPolls: 0 };
    const agentLoop = async (agentId: string) => {
      const agent = await connectClient(running.mqttUrl, { username: agentId, password: 'soak-pw' });
      clients.push(agent);
      agent.client.on('message', (topic, payload) => {
        if (topic === `rooms/${ROOM}/control` && payload.includes(`"reject"`) && payload.includes(`c_${agentId}_`))
          counts.rejectsSeen++;
      });
      await agent.client.subscribeAsync(`rooms/${ROOM}/control`, { qos: 1 });
      const heartbeat = setInterval(() => {
        const now = Math.floor(Date.now() / 1000);
        void agent.client
          .publishAsync(
            `rooms/${ROOM}/agents/${agentId}/heartbeat`,
            JSON.stringify({
              id: `hb_${agentId}_${now}`,
              type: 'heartbeat',
              room_id: ROOM,
              from: { kind: 'agent', id: agentId },
              ts: now,
              payload: { ts: now, description: 'soak' },
            }),
            { qos: 0 },
          )
          .then(
            () => counts.heartbeats++,
            () => undefined,
          );
      }, 1_000);
      let task = 0;
      let used = PER_GRANT;
      let n = 0;
      try {
        while (!stopping) {
          const refused = ++n % 10 === 0;
          if (!refused && used >= PER_GRANT) {
            await grant(agentId, `t${++task}`);
            used = 0;
          }
          const now = Math.floor(Date.now() / 1000);
          await agent.client.publishAsync(
            `rooms/${ROOM}/public_candidates`,
            JSON.stringify({
              id: `c_${agentId}_${n}`,
              type: 'result',
              room_id: ROOM,
              from: { kind: 'agent', id: agentId },
              ts: now,
              payload: {
                task_id: `t${task}`,
                message_type: refused ? 'finding' : 'progress',
                content: refused ? { bullets: ['not granted'] } : { text: `step ${n}` },
              },
            }),
            { qos: 1 },
          );
          counts.acked++;
          if (refused) counts.refusedByDesign++;
          else used++;
          await sleep(1000 / rate);
        }
      } finally {
        clearInterval(heartbeat);
      }
    };

    // Agora: one poster, POLLERS long-pollers that each must see every REQUEST.
    const seed = new Uint8Array(32).fill(9);
    const poster = keyPairFromSeed(seed);
    const posterDid = encodeDidKey(poster.publicKey);
    const posted = new Set<string>();
    const seenByPoller = Array.from({ length: pollersCount }, () => new Set<string>());
    const pollLoop = async (i: number) => {
      let since = `cur_${await store.relay.headSeq()}`;
      while (!stopping || seenByPoller[i]!.size < posted.size) {
        const res = await fetch(`${running.url}/events?since=${since}&timeout=2&limit=500`);
        const page = (await res.json()) as { events: { id: string }[]; cursor: string };
        counts.longPolls++;
        since = page.cursor;
        for (const e of page.events) seenByPoller[i]!.add(e.id);
      }
    };
    const postLoop = async () => {
      let k = 0;
      while (!stopping) {
        k++;
        const envelope = signDocument(
          {
            version: '1.0',
            id: `msg_soak_${k}`,
            ts: new Date().toISOString(),
            type: 'REQUEST',
            sender: { id: posterDid, name: 'Soak poster' },
            payload: {
              request_id: `req_soak_${k}`,
              intent: 'translation.en_zh',
              params: { text: 'Hello' },
              constraints: { max_cost_usd: 0.01 },
            },
            thread: { id: `thread_soak_${k}` },
            meta: { ttl: 300, hop: 0 },
          },
          'sig',
          poster.secretKey,
        );
        const res = await fetch(`${running.url}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(envelope),
        });
        if (res.ok) {
          posted.add(envelope.id);
          counts.agoraPosted++;
        } else {
          throw new Error(`POST /events refused a valid envelope: ${res.status} ${await res.text()}`);
        }
        await sleep(1000 / agoraRate);
      }
    };

    const samples: MemorySample[] = [];
    const started = Date.now();
    const sample = () => {
      // A full collection first: the sample is then what is still alive, not where the GC's
      // sawtooth happened to be (an unforced floor moved by tens of MB with the machine's load).
      collectGarbage();
      const m = process.memoryUsage();
      samples.push({ atS: Math.round((Date.now() - started) / 100) / 10, rssMb: mb(m.rss), heapMb: mb(m.heapUsed) });
    };
    sample();
    const sampler = setInterval(() => {
      sample();
      const last = samples.at(-1)!;
      log(
        `t=${last.atS}s rss=${last.rssMb}MB heap=${last.heapMb}MB acked=${counts.acked} public=${publicIds.size} polls=${counts.longPolls}`,
      );
    }, 1_000);

    const pollers = seenByPoller.map((_, i) => pollLoop(i));
    const work = [...agentIds.map(agentLoop), postLoop()];
    await sleep(options.seconds * 1000);
    stopping = true;
    await Promise.all(work);
    clearInterval(sampler);
    sample();

    // Drain: every approval reaches the listener, every REQUEST every poller (no deadline: a
    // drop shows as a hang the caller's timeout reports, or as the counts below).
    const spentTotal = async () => {
      let total = 0;
      for (const g of grantsIssued) total += (await store.rooms.getGrant(ROOM, g.agentId, g.taskId))?.spent ?? 0;
      return total;
    };
    for (let i = 0; i < 2_000 && publicIds.size < (await spentTotal()); i++) await sleep(5);
    for (let i = 0; i < 2_000 && counts.rejectsSeen < counts.refusedByDesign; i++) await sleep(5);
    await Promise.all(pollers);

    const history = new Set<string>();
    // Forward from the start: without `after` a page is the newest one.
    let cursor = 0;
    for (;;) {
      const page = await store.rooms.listMessages({
        roomId: ROOM,
        limit: 5_000,
        topicKinds: ['public'],
        after: cursor,
      });
      for (const m of page.messages) if (m.messageId) history.add(m.messageId);
      if (!page.hasMore) break;
      cursor = page.messages.at(-1)?.cursor ?? cursor;
    }
    const approved = await spentTotal();

    const warm = Math.max(1, Math.floor(samples.length * (options.warmupFraction ?? 0.25)));
    const steady = samples.slice(warm);
    const quarter = Math.max(1, Math.floor(steady.length / 4));
    const first = steady.slice(0, quarter);
    const last = steady.slice(-quarter);
    const heapAfterWarmupMb = Math.min(...first.map((s) => s.heapMb));
    const heapAtEndMb = Math.min(...last.map((s) => s.heapMb));
    return {
      seconds: options.seconds,
      samples,
      heapAfterWarmupMb,
      heapAtEndMb,
      heapGrowthMb: Math.round((heapAtEndMb - heapAfterWarmupMb) * 10) / 10,
      rssAfterWarmupMb: median(first.map((s) => s.rssMb)),
      rssAtEndMb: median(last.map((s) => s.rssMb)),
      candidatesAcked: counts.acked,
      refusedByDesign: counts.refusedByDesign,
      rejectsSeen: counts.rejectsSeen,
      approved,
      publicReceived: publicIds.size,
      missingFromHistory: [...publicIds].filter((id) => !history.has(id)).length,
      missingAtSubscriber: [...history].filter((id) => !publicIds.has(id)).length,
      heartbeats: counts.heartbeats,
      agoraPosted: counts.agoraPosted,
      agoraLeastDelivered: Math.min(...seenByPoller.map((s) => [...posted].filter((id) => s.has(id)).length)),
      longPolls: counts.longPolls,
    };
  } finally {
    stopping = true;
    await Promise.all(clients.map((c) => c.client.endAsync(true).catch(() => undefined)));
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
