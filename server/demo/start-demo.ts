// The demo that makes a fresh install come alive (BRIEF: "a newcomer sees live demo agents in a
// demo room within a minute"). Three well-behaved agents and a rogue connect to the broker as
// real MQTT clients with real credentials, and a scripted facilitator keeps the demo room busy.
// Everything random comes from one seed; clock, timers and ids are injectable.
import type { Envelope } from '@shared/aor/envelope';
import { connectAgent, type AgentClient } from '@agents/aor/agent-client';
import { ANALYST } from './analyst-content';
import type { WorkerProfile } from './content';
import { DEFAULT_PACE, DEMO_ROOM, REAL_TIMERS, type DemoPace, type Timers } from './demo-config';
import { DemoFacilitator, type Observe } from './facilitator';
import { deriveSeed, mulberry32 } from './prng';
import { RESEARCHER } from './researcher-content';
import { ROGUE, runRogue, type TrickReport } from './rogue-agent';
import { SCHEDULER } from './scheduler-content';
import { runWorker } from './worker-agent';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('demo');

export const DEMO_WORKERS: readonly WorkerProfile[] = [RESEARCHER, ANALYST, SCHEDULER];
export const DEMO_AGENT_IDS: readonly string[] = [...DEMO_WORKERS.map((w) => w.agentId), ROGUE.agentId];

export interface StartDemoOptions {
  /** Where the demo agents connect, e.g. `mqtt://127.0.0.1:1883` (the embedded broker's TCP port). */
  readonly brokerUrl: string;
  /** Creates (or rotates) the agent's broker credential and returns its password. */
  readonly provisionAgent: (agentId: string) => Promise<string>;
  /** Creates the room if it does not exist. */
  readonly ensureRoom: (id: string, name: string) => Promise<void>;
  /** Publishes as a facilitator through the server (recorded in history, accepted by the gateway). */
  readonly publishAsFacilitator: (topic: string, envelope: Envelope) => Promise<void>;
  /** Where agents publish candidates: the spec's topic (default), or the per-agent subtopic of an external broker. */
  readonly candidateTopic?: (roomId: string, agentId: string) => string;
  /** Sees what the broker routes on a filter (BrokerPort.onMessage fits). */
  readonly observe: Observe;
  /** Everything the demo chooses follows from this (a uint32; other numbers are truncated). */
  readonly seed: number;
  /** Milliseconds since the epoch; Date.now by default. Must be the clock the gateway uses. */
  readonly now?: () => number;
  readonly timers?: Timers;
  /** A unique token per call; the demo prefixes it (`msg_`, `task_`). A random UUID by default. */
  readonly newId?: () => string;
  readonly pace?: Partial<DemoPace>;
  /** Stop assigning tasks after this many (tests). */
  readonly maxEpisodes?: number;
  /** Each rogue attempt and what came of it (tests, logs). */
  readonly onRogueTrick?: (report: TrickReport) => void;
  readonly onError?: (error: unknown) => void;
}

export interface DemoHandle {
  readonly agentIds: readonly string[];
  /** Settles when the facilitator stops assigning (after `maxEpisodes`, or on stop). */
  readonly finished: Promise<void>;
  /** Stops assigning, then closes every agent (each says offline). Call before closing the broker. */
  stop(): Promise<void>;
}

export async function startDemo(options: StartDemoOptions): Promise<DemoHandle> {
  if (!Number.isFinite(options.seed)) throw new RangeError('seed must be a finite number');
  const seed = options.seed >>> 0;
  const pace: DemoPace = { ...DEFAULT_PACE, ...options.pace };
  const now = options.now ?? Date.now;
  const timers = options.timers ?? REAL_TIMERS;
  const token = options.newId ?? (() => globalThis.crypto.randomUUID());
  const onError = options.onError ?? ((error: unknown) => log.error({ demo: 'rooms', err: error }, 'demo step failed'));
  const stopped = new AbortController();

  await options.ensureRoom(DEMO_ROOM.id, DEMO_ROOM.name);

  const agents: AgentClient[] = [];
  const connect = async (agentId: string, description: string) => {
    const agent = await connectAgent({
      url: options.brokerUrl,
      agentId,
      // Bound credentials on an external broker: client id = agentId (harmless on aedes).
      clientId: agentId,
      ...(options.candidateTopic ? { candidateTopic: options.candidateTopic } : {}),
      password: await options.provisionAgent(agentId),
      rooms: [DEMO_ROOM.id],
      description,
      heartbeatIntervalMs: pace.heartbeatIntervalMs,
      // MQTT 5: the rogue's refused publish must come back as a PUBACK error, not a disconnect.
      protocolVersion: 5,
      now,
      newId: () => `msg_${token()}`,
      grantWaitMs: pace.grantWaitMs,
      askTimeoutMs: pace.askTimeoutMs,
      onError,
    });
    agents.push(agent);
    return agent;
  };

  let facilitator: DemoFacilitator | undefined;
  try {
    // One after another, so the order of everything they do follows from the seed alone.
    for (const profile of DEMO_WORKERS) {
      const agent = await connect(profile.agentId, profile.description);
      runWorker(agent, { profile, rng: mulberry32(deriveSeed(seed, profile.agentId)), pace, timers, now });
    }
    const rogue = await connect(ROGUE.agentId, ROGUE.description);
    runRogue(rogue, {
      rng: mulberry32(deriveSeed(seed, ROGUE.agentId)),
      pace,
      timers,
      now,
      newId: () => `msg_${token()}`,
      impersonate: RESEARCHER.agentId,
      stopped: stopped.signal,
      ...(options.onRogueTrick ? { onTrick: options.onRogueTrick } : {}),
    });
    facilitator = new DemoFacilitator({
      roomId: DEMO_ROOM.id,
      workers: DEMO_WORKERS,
      rogueId: ROGUE.agentId,
      rng: mulberry32(deriveSeed(seed, 'facilitator')),
      answerRng: mulberry32(deriveSeed(seed, 'answers')),
      pace,
      timers,
      now,
      newId: token,
      publish: options.publishAsFacilitator,
      observe: options.observe,
      onError,
      ...(options.maxEpisodes === undefined ? {} : { maxEpisodes: options.maxEpisodes }),
    });
    facilitator.start();
  } catch (error) {
    stopped.abort();
    await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
    throw error;
  }

  const running = facilitator;
  let stopping: Promise<void> | undefined;
  return {
    agentIds: DEMO_AGENT_IDS,
    finished: running.finished,
    stop: () =>
      (stopping ??= (async () => {
        stopped.abort();
        await running.stop();
        await Promise.all(agents.map((a) => a.close().catch(onError)));
      })()),
  };
}
