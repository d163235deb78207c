// The relay bench's long-poll clients and sender, in the bench's own process (the default) or,
// with BENCH_CLIENTS=process, in a forked process of their own, as agents run. In one process
// every young-generation scavenge of the server's heap also copies the clients' 1,000 open
// requests; in two, each side collects only its own, but every wake-up also waits for the other
// process to be scheduled. Either way the delays are timed where the POSTs start and the responses
// are read, on one clock. Forked, the child asks the bench for what only the server knows: its
// store head (the waiters' first cursor) and when N long-polls are waiting in its feed.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import { channel, type Wire } from './ipc-channel';
import { party, signedRequest } from './relay-envelopes';

export type ClientsMode = 'inline' | 'process';

/** What the clients need from the server's side. */
export interface ServerSide {
  headSeq(): Promise<number>;
  /** Resolves once at least `n` long-polls wait in the server's feed. */
  until(n: number): Promise<void>;
}

export interface LongPollResults {
  readonly waiters: number;
  readonly rate: number;
  readonly seconds: number;
  readonly achieved: number;
  /** (a) POST → that waiter's response, ms. */
  readonly delays: number[];
  /** (b) POST → each follower's response, ms; undefined when (b) was skipped. */
  readonly each?: number[];
  /** (b) POST → the last follower's response, per event, ms. */
  readonly last?: number[];
}

export interface RelayClients {
  /** Runs (a) and, unless `skipFollow`, (b); the long-polls stay open, asking again, until `drain`. */
  run(base: string, skipFollow: boolean): Promise<LongPollResults>;
  /** Stops asking again; call once the server has answered every waiter (feed closed). */
  drain(): Promise<void>;
}

export function startRelayClients(mode: ClientsMode, server: ServerSide): Promise<RelayClients> {
  return mode === 'process' ? forkRelayClients(server) : Promise.resolve(inlineRelayClients(server));
}

/** One HTTP request over a keep-alive agent; resolves with the body text. */
function request(agent: http.Agent, url: string, method = 'GET', body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks).toString())
            : reject(new Error(Buffer.concat(chunks).toString())),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function inlineRelayClients(server: ServerSide): RelayClients {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const loops: Promise<void>[] = [];
  let stopping = false;
  // Every loop has one poll outstanding; once all of them wait in the feed, none asks again, so
  // closing the feed answers the last of them (a poll still on its way would wait its 60 s out).
  const stop = async <T>(open: number, results: T) => {
    await server.until(open);
    stopping = true;
    return results;
  };
  return {
    async run(base, skipFollow) {
      const WAITERS = 1000;
      const agents = Array.from({ length: WAITERS }, (_, i) => party(1000 + i));
      const sender = party(999);
      const broadcaster = party(998);
      const arrived = new Map<string, (at: number) => void>();

      // Each waiter long-polls from a cursor, forever, and reports each event it gets.
      const poll = async (name: string, filter: string) => {
        let since = `cur_${await server.headSeq()}`;
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

      // (a) 1,000 agents wait on their own inbox; 200 events/s for 10 s, each to one of them.
      loops.push(...agents.map((a) => poll(a.did, `&recipient=${encodeURIComponent(a.did)}`)));
      await server.until(WAITERS);
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
      const results = { waiters: WAITERS, rate: RATE, seconds: SECONDS, achieved, delays };
      if (skipFollow) return stop(WAITERS, results);

      // (b) 1,000 more long-polls follow one sender; each of its events wakes every one of them.
      const followers = agents.map((a) => `${a.did}#follow`);
      loops.push(...followers.map((name) => poll(name, `&sender=${encodeURIComponent(broadcaster.did)}`)));
      await server.until(2 * WAITERS);
      const each: number[] = [];
      const last: number[] = [];
      for (let i = 0; i < 20; i++) {
        await server.until(2 * WAITERS);
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
      return stop(2 * WAITERS, { ...results, each, last });
    },
    async drain() {
      stopping = true;
      await Promise.allSettled(loops);
      agent.destroy();
    },
  };
}

const CHILD_FLAG = '--relay-clients';

async function forkRelayClients(server: ServerSide): Promise<RelayClients> {
  // execArgv is set so that the bench's own flags (--cpu-prof, --trace-gc) stay on the server.
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
    env: process.env,
  });
  const wire = channel(
    (message) => child.send(message),
    async (kind, args) => {
      if (kind === 'headSeq') return server.headSeq();
      if (kind === 'until') return server.until(args[0] as number);
      throw new Error(`unknown request ${kind}`);
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (message) => wire.receive(message as Wire));
  child.once('exit', (code) => {
    if (code) console.error(`relay bench clients exited with ${code}`);
  });
  return {
    run: (base, skipFollow) => wire.request('run', base, skipFollow) as Promise<LongPollResults>,
    async drain() {
      await wire.request('drain');
      child.disconnect();
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The child.

function runChild(): void {
  const wire = channel(
    (message) => process.send!(message),
    async (kind, args) => {
      if (kind === 'run') return clients.run(args[0] as string, args[1] as boolean);
      if (kind === 'drain') return clients.drain();
      throw new Error(`unknown request ${kind}`);
    },
  );
  const clients = inlineRelayClients({
    headSeq: async () => (await wire.request('headSeq')) as number,
    until: async (n) => void (await wire.request('until', n)),
  });
  process.on('message', (message) => wire.receive(message as Wire));
  process.once('disconnect', () => process.exit(0));
}

if (process.argv.includes(CHILD_FLAG)) runChild();
