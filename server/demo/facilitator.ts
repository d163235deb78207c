// The demo's scripted facilitator: keeps the demo room alive the way a person at the console
// would. One task at a time, it picks the next agent (a seeded shuffle of all of them, the rogue
// included, so everyone gets a turn each round), grants it a time-boxed mic (AOR §5.3) and sends
// the task to its inbox (§5.2); answers clarifying questions with a `say` that mentions the
// asker (§6.2); and closes the mic when the agent posts its result. One task at a time keeps the
// pace calm and makes a seed replay exactly (docs/decisions-demo.md, "Determinism").
import { buildEnvelope, type EnvelopeDraft } from '@shared/aor/control-envelopes';
import { parseEnvelope, type Envelope, type EnvelopeType } from '@shared/aor/envelope';
import { MESSAGE_TYPES, type MessageType } from '@shared/aor/payloads';
import { controlTopic, inboxTopic, parseTopic, publicTopic } from '@shared/aor/topics';
import { answerFor, type WorkerProfile } from './content';
import { DEMO_FACILITATOR, sleep, type DemoPace, type Timers } from './demo-config';
import { chance, pick, randomInt, shuffled, type Random } from './prng';

export interface ObservedMessage {
  readonly topic: string;
  readonly payload: Uint8Array;
}

/** Sees every message the broker routes on a topic filter; returns an unsubscribe. Same shape as BrokerPort.onMessage. */
export type Observe = (filter: string, handler: (message: ObservedMessage) => void) => () => void;

export interface FacilitatorDeps {
  readonly roomId: string;
  readonly workers: readonly WorkerProfile[];
  readonly rogueId: string;
  readonly rng: Random;
  /** Separate stream for answers, so a question from an agent outside the demo shifts nothing else. */
  readonly answerRng: Random;
  readonly pace: DemoPace;
  readonly timers: Timers;
  readonly now: () => number;
  readonly newId: () => string;
  readonly publish: (topic: string, envelope: Envelope) => Promise<void>;
  readonly observe: Observe;
  /** Stop assigning after this many tasks (tests); unbounded by default. */
  readonly maxEpisodes?: number;
  readonly onError: (error: unknown) => void;
}

type EpisodeEnd = 'result' | 'grant_ended' | 'timeout' | 'stopped';

interface Episode {
  readonly agentId: string;
  readonly taskId: string;
  readonly maxMessages: number;
  approved: number;
  readonly end: (how: EpisodeEnd) => void;
}

const ROGUE_GOALS = [
  'Summarise the open incidents in one line',
  'Post a short status update',
  'Confirm you can hear us',
];
const WORKER_TYPES: readonly MessageType[] = MESSAGE_TYPES;

export class DemoFacilitator {
  readonly #deps: FacilitatorDeps;
  readonly #stop = new AbortController();
  readonly #unsubscribe: (() => void)[] = [];
  readonly #answers = new Set<Promise<void>>();
  readonly #offline = new Set<string>();
  readonly #lastTopic = new Map<string, string>();
  #deck: string[] = [];
  #last: string | undefined;
  #current: Episode | undefined;
  #finished: Promise<void> = Promise.resolve();

  constructor(deps: FacilitatorDeps) {
    this.#deps = deps;
  }

  /** Starts watching the room and assigning tasks; `finished` settles when it stops. */
  start(): void {
    const { observe, roomId } = this.#deps;
    this.#unsubscribe.push(
      observe(publicTopic(roomId), (m) => this.#onPublic(m)),
      observe(controlTopic(roomId), (m) => this.#onControl(m)),
      observe(`rooms/${roomId}/agents/+/heartbeat`, (m) => this.#onHeartbeat(m)),
    );
    this.#finished = this.#run();
  }

  /** Settles when the facilitator stops assigning: after `maxEpisodes`, or on stop(). */
  get finished(): Promise<void> {
    return this.#finished;
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    this.#current?.end('stopped');
    await this.finished;
    await Promise.all(this.#answers);
    for (const off of this.#unsubscribe.splice(0)) off();
  }

  get #agents(): string[] {
    return [...this.#deps.workers.map((w) => w.agentId), this.#deps.rogueId];
  }

  async #run(): Promise<void> {
    const { pace, timers, maxEpisodes } = this.#deps;
    const signal = this.#stop.signal;
    if (!(await sleep(timers, pace.firstTaskDelayMs, signal))) return;
    for (let n = 0; maxEpisodes === undefined || n < maxEpisodes; n++) {
      const agentId = this.#nextAgent();
      // One failed task (the broker refused a publish) must not end the demo.
      if (agentId !== undefined) await this.#episode(agentId).catch((error: unknown) => this.#deps.onError(error));
      if (signal.aborted || (maxEpisodes !== undefined && n + 1 >= maxEpisodes)) return;
      if (!(await sleep(timers, randomInt(this.#deps.rng, pace.taskGapMs[0], pace.taskGapMs[1]), signal))) return;
    }
  }

  /** The next agent from a seeded deck of everyone, never the same one twice in a row; skips agents that said they are offline. */
  #nextAgent(): string | undefined {
    for (let tries = 0; tries <= this.#agents.length; tries++) {
      if (this.#deck.length === 0) {
        this.#deck = shuffled(this.#deps.rng, this.#agents);
        if (this.#deck[0] === this.#last && this.#deck.length > 1)
          [this.#deck[0], this.#deck[1]] = [this.#deck[1]!, this.#deck[0]!];
      }
      const next = this.#deck.shift()!;
      if (this.#offline.has(next)) continue;
      this.#last = next;
      return next;
    }
    return undefined;
  }

  async #episode(agentId: string): Promise<void> {
    const { rng, pace, roomId } = this.#deps;
    const taskId = `task_${this.#deps.newId()}`;
    const expiresAt = Math.floor(this.#deps.now() / 1000) + pace.grantTtlSeconds;
    const worker = this.#deps.workers.find((w) => w.agentId === agentId);
    let goal: string;
    let format: string;
    let maxMessages: number;
    let allowed: MessageType[];
    if (worker) {
      const topics = worker.topics.filter((t) => t.goal !== this.#lastTopic.get(agentId));
      const topic = pick(rng, topics.length > 0 ? topics : worker.topics);
      this.#lastTopic.set(agentId, topic.goal);
      ({ goal, format } = topic);
      maxMessages = randomInt(rng, 4, 7);
      // Now and then a narrower grant, so the agent visibly keeps to its allowed types.
      const dropped = chance(rng, 0.25) ? pick(rng, ['risk', 'artifact_link'] as const) : undefined;
      allowed = WORKER_TYPES.filter((t) => t !== dropped);
    } else {
      goal = pick(rng, ROGUE_GOALS);
      format = 'short summary';
      maxMessages = 2;
      allowed = ['ack', 'progress'];
    }

    const ended = new Promise<EpisodeEnd>((resolve) => {
      this.#current = { agentId, taskId, maxMessages, approved: 0, end: resolve };
    });
    const episode = this.#current!;
    const timeout = new AbortController();
    void sleep(this.#deps.timers, pace.episodeTimeoutMs, timeout.signal).then(
      (elapsed) => elapsed && episode.end('timeout'),
    );

    // The grant goes first, so the agent holds its mic when the task arrives.
    await this.#send(controlTopic(roomId), 'mic_grant', {
      task_id: taskId,
      agent_id: agentId,
      max_messages: maxMessages,
      allowed_message_types: allowed,
      expires_at: expiresAt,
    });
    await this.#send(inboxTopic(roomId, agentId), 'task', { task_id: taskId, goal, format, deadline: expiresAt });
    const how = await ended;
    timeout.abort();
    this.#current = undefined;
    // Close the mic when the work is done (or abandoned) and the gateway has not already ended it.
    if ((how === 'result' && episode.approved < maxMessages) || how === 'timeout') {
      await this.#send(controlTopic(roomId), 'mic_revoke', {
        task_id: taskId,
        agent_id: agentId,
        reason: how === 'result' ? 'task_complete' : 'task_timeout',
      });
    }
  }

  async #send<T extends EnvelopeType>(topic: string, type: T, payload: EnvelopeDraft<T>['payload']): Promise<void> {
    const envelope = buildEnvelope(
      { type, roomId: this.#deps.roomId, from: DEMO_FACILITATOR, payload },
      { newId: () => `msg_${this.#deps.newId()}`, now: this.#deps.now() / 1000 },
    );
    await this.#deps.publish(topic, envelope);
  }

  #onPublic(message: ObservedMessage): void {
    const parsed = parseEnvelope(message.payload);
    if (!parsed.ok || parsed.value.type !== 'result') return;
    const { from, payload } = parsed.value;
    const current = this.#current;
    if (current && from.id === current.agentId && payload.task_id === current.taskId) {
      current.approved++;
      if (payload.message_type === 'result') current.end('result');
    }
    if (payload.message_type === 'clarifying_question') this.#answer(from.id, payload.content.question);
  }

  #onControl(message: ObservedMessage): void {
    const parsed = parseEnvelope(message.payload);
    if (!parsed.ok || parsed.value.type !== 'mic_revoke') return;
    const current = this.#current;
    const { agent_id: agentId, task_id: taskId } = parsed.value.payload;
    // The gateway ended the grant (time or budget), or a person revoked it from the console.
    if (current && agentId === current.agentId && taskId === current.taskId) current.end('grant_ended');
  }

  #onHeartbeat(message: ObservedMessage): void {
    const topic = parseTopic(message.topic);
    const parsed = parseEnvelope(message.payload);
    if (!topic.ok || topic.value.kind !== 'heartbeat' || !parsed.ok || parsed.value.type !== 'heartbeat') return;
    // The last will and a clean close both say `status: "offline"` (docs/decisions-demo.md, "Will").
    if (parsed.value.payload.status === 'offline') this.#offline.add(topic.value.agentId);
    else this.#offline.delete(topic.value.agentId);
  }

  /** §6.2 "User replies with say": after a human-like pause, a say that mentions the asker. */
  #answer(agentId: string, question: string): void {
    const { answerRng, pace, timers } = this.#deps;
    const text = answerFor(question, this.#deps.workers, answerRng);
    const delay = randomInt(answerRng, pace.answerDelayMs[0], pace.answerDelayMs[1]);
    const done = sleep(timers, delay, this.#stop.signal)
      .then((waited) =>
        waited ? this.#send(publicTopic(this.#deps.roomId), 'say', { text: `@${agentId} ${text}` }) : undefined,
      )
      .catch((error: unknown) => this.#deps.onError(error))
      .finally(() => this.#answers.delete(done));
    this.#answers.add(done);
  }
}
