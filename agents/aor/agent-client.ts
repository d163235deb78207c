// An AOR v0.1 agent over MQTT, for agents written in TypeScript. It speaks the spec's topics
// (§3) and envelope (§4) with the shared protocol core, so what it sends is exactly what the
// gateway checks; it depends only on `mqtt` and `shared/aor`. How to use it: ./README.md.
//
//   const agent = await connectAgent({ url, agentId, password, rooms: ['demo'], description });
//   agent.onTask(async (task, ctx) => {
//     if (!(await ctx.waitForGrant(60_000))) return;
//     await ctx.ack('On it.');
//     await ctx.result(`Done: ${task.goal}`);
//   });
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { buildEnvelope } from '@shared/aor/control-envelopes';
import { parseEnvelope, type Envelope, type From, type ResultEnvelope, type TaskEnvelope } from '@shared/aor/envelope';
import { assertValidId } from '@shared/aor/ids';
import { grantKeyId } from '@shared/aor/mic-grants';
import { RejectReason } from '@shared/aor/reject-reasons';
import {
  controlTopic,
  heartbeatTopic,
  inboxTopic,
  parseTopic,
  publicCandidatesTopic,
  publicTopic,
  type AorTopic,
} from '@shared/aor/topics';
import { AgentClosedError, MicRevokedError, isTaskStopped } from './agent-errors';
import { CandidateOutcomes, type CandidateOutcome } from './candidate-outcomes';
import { GrantTracker } from './grant-tracker';
import { mentionsAgent } from './mentions';
import { createTaskContext, type TaskContext, type TaskControl, type TaskRuntime } from './task-context';

export type { CandidateOutcome } from './candidate-outcomes';
export type { GrantView } from './grant-tracker';
export type { ContentOf, RiskNotice, TaskContext } from './task-context';
export { AgentClosedError, MicRevokedError, isTaskStopped } from './agent-errors';

export interface ConnectAgentOptions {
  /** Broker URL, e.g. `mqtt://127.0.0.1:1883` (also `mqtts:`, `ws:`, `wss:`). */
  readonly url: string;
  /** AOR agent id; also the MQTT username the broker authenticates (§8). */
  readonly agentId: string;
  /** The credential issued by `npm run cli -- agents add <agentId>`. */
  readonly password: string;
  /** Rooms to join, at least one. The first also carries the last will (see README). */
  readonly rooms: readonly string[];
  /** Sent with every heartbeat (§5.5), so facilitators know what the agent is for. */
  readonly description?: string;
  /** §5.5 "typically every 5 seconds". */
  readonly heartbeatIntervalMs?: number;
  /**
   * Where candidates go. Default: the spec's `rooms/{roomId}/public_candidates`. On an external
   * broker (MQTT_URL), the per-agent subtopic `rooms/{roomId}/public_candidates/{agentId}` that its
   * ACL reserves for this agent (docs/decisions-external-broker.md).
   */
  readonly candidateTopic?: (roomId: string, agentId: string) => string;
  /**
   * MQTT client id; by default the agentId. The broker binds client ids to identities: an agent
   * may use its agentId or `{agentId}/{anything}` (an external broker: the agentId only).
   */
  readonly clientId?: string;
  /** MQTT 3.1.1 (4) or 5; only MQTT 5 reports a refused publish without dropping the connection. */
  readonly protocolVersion?: 4 | 5;
  /** Milliseconds since the epoch; envelopes carry whole seconds (§4). */
  readonly now?: () => number;
  /** A globally unique message id (§4) per call. */
  readonly newId?: () => string;
  /** How long `ctx.waitForGrant()` waits by default. */
  readonly grantWaitMs?: number;
  /** How long `ctx.ask()` waits for an answer by default. */
  readonly askTimeoutMs?: number;
  /** How long a candidate waits for approval or reject before its outcome is `unknown`. */
  readonly outcomeTimeoutMs?: number;
  /** Delay between reconnection attempts; 0 turns reconnection off. */
  readonly reconnectPeriodMs?: number;
  /** Where errors of task handlers and heartbeats go; console.error by default. */
  readonly onError?: (error: unknown) => void;
}

export type TaskHandler = (task: TaskEnvelope['payload'], ctx: TaskContext) => void | Promise<void>;
export type EnvelopeListener = (topic: AorTopic, envelope: Envelope) => void;

export interface AgentClient {
  readonly agentId: string;
  readonly rooms: readonly string[];
  /** The underlying MQTT client, for what the protocol helpers do not cover. */
  readonly mqtt: MqttClient;
  /** Handles every task (§5.2) that arrives in this agent's inboxes; tasks that came earlier are delivered now. */
  onTask(handler: TaskHandler): () => void;
  /** Sees every envelope that arrives (public, control, inbox), after the client's own bookkeeping. */
  onEnvelope(listener: EnvelopeListener): () => void;
  /**
   * Publishes any envelope to `rooms/{roomId}/public_candidates` (the room of `envelope.room_id`
   * unless given) without the checks a task context makes, and reports the gateway's verdict.
   * Rejects if the broker refused the publish itself.
   */
  submit(envelope: Envelope, roomId?: string): Promise<CandidateOutcome>;
  /** Sends one heartbeat to every room now. */
  heartbeat(): Promise<void>;
  /** Publishes an offline heartbeat to every room, stops every task and disconnects cleanly (no will). */
  close(): Promise<void>;
}

const DEFAULTS = {
  heartbeatIntervalMs: 5_000,
  protocolVersion: 5,
  grantWaitMs: 60_000,
  askTimeoutMs: 120_000,
  outcomeTimeoutMs: 120_000,
  reconnectPeriodMs: 2_000,
} as const;

const encode = (value: unknown) => JSON.stringify(value);
const defaultNewId = () => `msg_${globalThis.crypto.randomUUID()}`;

function checkOptions(o: ConnectAgentOptions): void {
  if (typeof o.url !== 'string' || o.url.length === 0) throw new TypeError('url must be a broker URL');
  assertValidId(o.agentId, 'agentId');
  if (typeof o.password !== 'string') throw new TypeError('password must be a string');
  if (!Array.isArray(o.rooms) || o.rooms.length === 0) throw new RangeError('rooms must name at least one room');
  for (const room of o.rooms) assertValidId(room, 'room');
  for (const name of ['heartbeatIntervalMs', 'grantWaitMs', 'askTimeoutMs', 'outcomeTimeoutMs'] as const) {
    const value = o[name];
    if (value !== undefined && !(Number.isFinite(value) && value > 0))
      throw new RangeError(`${name} must be a positive number of milliseconds`);
  }
  if (o.reconnectPeriodMs !== undefined && !(Number.isFinite(o.reconnectPeriodMs) && o.reconnectPeriodMs >= 0))
    throw new RangeError('reconnectPeriodMs must be 0 or more');
  if (o.protocolVersion !== undefined && o.protocolVersion !== 4 && o.protocolVersion !== 5)
    throw new RangeError('protocolVersion must be 4 or 5');
}

/** Connects, subscribes to the §8 topics of every room, sends a first heartbeat, and starts heartbeating. */
export async function connectAgent(options: ConnectAgentOptions): Promise<AgentClient> {
  checkOptions(options);
  const now = options.now ?? Date.now;
  const newId = options.newId ?? defaultNewId;
  const from: From = { kind: 'agent', id: options.agentId };
  const rooms = [...new Set(options.rooms)];
  const nowSeconds = () => now() / 1000;

  // §5.5 heartbeat with status "offline": the broker publishes it if the connection dies without
  // a DISCONNECT. MQTT has one will per connection, so it goes to the first room only; agents may
  // not retain (§8 as enforced), so it is QoS 1, not retained. Its ts is the connect time.
  const willEnvelope = buildEnvelope(
    { type: 'heartbeat', roomId: rooms[0]!, from, payload: { ts: Math.floor(nowSeconds()), status: 'offline' } },
    { newId, now: nowSeconds() },
  );
  const mqttOptions: IClientOptions = {
    username: options.agentId,
    password: options.password,
    protocolVersion: options.protocolVersion ?? DEFAULTS.protocolVersion,
    clean: true,
    connectTimeout: 10_000,
    reconnectPeriod: options.reconnectPeriodMs ?? DEFAULTS.reconnectPeriodMs,
    // A refused CONNECT (a suspended or rotated credential) is retried like a lost connection, so
    // an agent comes back by itself once a facilitator resumes it (decisions-server.md §62).
    // mqtt.js stops reconnecting after a CONNACK error unless told otherwise.
    reconnectOnConnackError: true,
    will: { topic: heartbeatTopic(rooms[0]!, options.agentId), payload: encode(willEnvelope), qos: 1, retain: false },
    clientId: options.clientId ?? options.agentId,
  };
  const client = await mqtt.connectAsync(options.url, mqttOptions);
  const agent = new Agent(client, options, rooms, from, now, newId);
  try {
    await agent.subscribe();
    await agent.heartbeat();
  } catch (error) {
    await client.endAsync(true).catch(() => undefined);
    throw error;
  }
  agent.startHeartbeats(options.heartbeatIntervalMs ?? DEFAULTS.heartbeatIntervalMs);
  return agent;
}

class Agent implements AgentClient {
  readonly agentId: string;
  readonly #grants: GrantTracker;
  readonly #outcomes: CandidateOutcomes;
  readonly #tasks = new Map<string, Set<TaskControl>>();
  readonly #handlers = new Set<TaskHandler>();
  readonly #listeners = new Set<EnvelopeListener>();
  /** Tasks that arrived before any handler was registered. */
  readonly #waitingTasks: { envelope: TaskEnvelope; roomId: string }[] = [];
  /** Task envelope ids already started: a QoS 1 redelivery does not run a task twice. */
  readonly #seenTasks = new Set<string>();
  readonly #mentionWaiters = new Set<{ roomId: string; resolve: (text: string) => void }>();
  readonly #runtime: TaskRuntime;
  readonly #onError: (error: unknown) => void;
  #heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(
    readonly mqtt: MqttClient,
    private readonly options: ConnectAgentOptions,
    readonly rooms: readonly string[],
    private readonly from: From,
    private readonly now: () => number,
    private readonly newId: () => string,
  ) {
    this.agentId = options.agentId;
    this.#grants = new GrantTracker(options.agentId);
    this.#outcomes = new CandidateOutcomes(options.outcomeTimeoutMs ?? DEFAULTS.outcomeTimeoutMs);
    this.#onError = options.onError ?? ((error) => console.error(`agent ${options.agentId}:`, error));
    this.#runtime = {
      from,
      grants: this.#grants,
      grantWaitMs: options.grantWaitMs ?? DEFAULTS.grantWaitMs,
      askTimeoutMs: options.askTimeoutMs ?? DEFAULTS.askTimeoutMs,
      nowSeconds: () => now() / 1000,
      newId,
      submit: (envelope: ResultEnvelope, roomId: string) => this.submit(envelope, roomId),
      nextMention: (roomId, timeoutMs, signal) => this.#nextMention(roomId, timeoutMs, signal),
    };
    this.#grants.onChange(({ key, effect }) => {
      if (effect !== 'revoked') return;
      const reason = this.#grants.get(key)?.revokeReason;
      for (const task of this.#tasks.get(grantKeyId(key)) ?? []) task.stop(new MicRevokedError(key.taskId, reason));
    });
    mqtt.on('message', (topic, payload) => this.#receive(topic, payload));
    // After a reconnect the will may have announced "offline": say otherwise at once.
    mqtt.on('connect', () => {
      if (this.#heartbeatTimer !== undefined) void this.heartbeat().catch(this.#onError);
    });
  }

  /** §8: an agent may read its rooms' public and control topics and its own inbox, nothing else. */
  async subscribe(): Promise<void> {
    const filters = this.rooms.flatMap((room) => [
      publicTopic(room),
      controlTopic(room),
      inboxTopic(room, this.agentId),
    ]);
    const granted = await this.mqtt.subscribeAsync(filters, { qos: 1 });
    const refused = granted.filter((g) => g.qos >= 0x80).map((g) => g.topic);
    if (refused.length > 0)
      throw new Error(`The broker refused the subscriptions ${refused.join(', ')} for ${this.agentId}.`);
  }

  startHeartbeats(intervalMs: number): void {
    this.#heartbeatTimer = setInterval(() => void this.heartbeat().catch(this.#onError), intervalMs);
    this.#heartbeatTimer.unref?.();
  }

  async heartbeat(): Promise<void> {
    const description = this.options.description;
    await Promise.all(
      this.rooms.map((room) => this.#publishHeartbeat(room, description === undefined ? {} : { description })),
    );
  }

  async #publishHeartbeat(roomId: string, extra: Record<string, unknown>): Promise<void> {
    const nowSeconds = this.now() / 1000;
    const envelope = buildEnvelope(
      { type: 'heartbeat', roomId, from: this.from, payload: { ts: Math.floor(nowSeconds), ...extra } },
      { newId: this.newId, now: nowSeconds },
    );
    await this.mqtt.publishAsync(heartbeatTopic(roomId, this.agentId), encode(envelope), { qos: 1, retain: false });
  }

  onTask(handler: TaskHandler): () => void {
    this.#handlers.add(handler);
    for (const waiting of this.#waitingTasks.splice(0)) this.#startTask(waiting.envelope, waiting.roomId);
    return () => this.#handlers.delete(handler);
  }

  onEnvelope(listener: EnvelopeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async submit(envelope: Envelope, roomId: string = envelope.room_id): Promise<CandidateOutcome> {
    if (this.#closed) throw new Error(`Agent ${this.agentId} is closed.`);
    const text = encode(envelope);
    const outcome = this.#outcomes.expect(envelope.id, roomId, text);
    try {
      const topic = this.options.candidateTopic?.(roomId, this.agentId) ?? publicCandidatesTopic(roomId);
      await this.mqtt.publishAsync(topic, text, { qos: 1, retain: false });
    } catch (error) {
      this.#outcomes.forget(envelope.id);
      throw error;
    }
    return outcome;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeatTimer);
    for (const tasks of this.#tasks.values())
      for (const task of tasks) task.stop(new AgentClosedError(task.key.taskId));
    this.#outcomes.closeAll();
    if (this.mqtt.connected) {
      await Promise.all(this.rooms.map((room) => this.#publishHeartbeat(room, { status: 'offline' }))).catch(
        () => undefined,
      );
    }
    // A DISCONNECT tells the broker not to publish the will: the offline heartbeat was sent already.
    await this.mqtt.endAsync();
  }

  #nextMention(roomId: string, timeoutMs: number, signal: AbortSignal) {
    let cancel = () => {};
    const answer = new Promise<string | undefined>((resolve) => {
      const waiter = { roomId, resolve: (text: string) => finish(text) };
      const finish = (text: string | undefined) => {
        clearTimeout(timer);
        this.#mentionWaiters.delete(waiter);
        signal.removeEventListener('abort', onAbort);
        resolve(text);
      };
      const onAbort = () => finish(undefined);
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      if (signal.aborted) return finish(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#mentionWaiters.add(waiter);
      cancel = () => finish(undefined);
    });
    return { answer, cancel: () => cancel() };
  }

  #receive(topicName: string, payload: Buffer): void {
    if (this.#closed) return;
    const topic = parseTopic(topicName);
    if (!topic.ok || !this.rooms.includes(topic.value.roomId)) return;
    const parsed = parseEnvelope(payload);
    if (!parsed.ok) return;
    const envelope = parsed.value;
    const roomId = topic.value.roomId;
    switch (topic.value.kind) {
      case 'public':
        this.#onPublic(roomId, envelope, payload.toString('utf8'));
        break;
      case 'control':
        this.#onControl(roomId, envelope);
        break;
      case 'inbox':
        if (envelope.type === 'task' && topic.value.agentId === this.agentId) this.#onTask(envelope, roomId);
        break;
      case 'heartbeat':
      case 'public_candidates':
      case 'work':
        break;
    }
    for (const listener of [...this.#listeners]) {
      try {
        listener(topic.value, envelope);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  #onPublic(roomId: string, envelope: Envelope, text: string): void {
    if (envelope.type === 'result' && envelope.from.id === this.agentId) {
      // §7: approved candidates are republished unchanged; each spends one message.
      this.#grants.noteApproved({ roomId, agentId: this.agentId, taskId: envelope.payload.task_id }, envelope.id);
      this.#outcomes.seenOnPublic(roomId, envelope.id, text);
    } else if (envelope.type === 'say' && mentionsAgent(envelope.payload.text, this.agentId)) {
      for (const waiter of [...this.#mentionWaiters])
        if (waiter.roomId === roomId) waiter.resolve(envelope.payload.text);
    }
  }

  #onControl(roomId: string, envelope: Envelope): void {
    if (envelope.type === 'mic_grant' || envelope.type === 'mic_revoke') {
      this.#grants.applyControl(envelope, roomId);
    } else if (envelope.type === 'reject' && envelope.payload.message_id !== undefined) {
      const { message_id: messageId, task_id: taskId, reason, detail } = envelope.payload;
      const mine = this.#outcomes.rejected(roomId, messageId, reason, detail);
      if (mine && taskId !== undefined && reason === RejectReason.messageLimitExceeded) {
        this.#grants.noteExhausted({ roomId, agentId: this.agentId, taskId });
      }
    }
  }

  #onTask(envelope: TaskEnvelope, roomId: string): void {
    if (this.#seenTasks.has(envelope.id)) return;
    this.#seenTasks.add(envelope.id);
    if (this.#seenTasks.size > 10_000) this.#seenTasks.delete(this.#seenTasks.values().next().value!);
    if (this.#handlers.size === 0) this.#waitingTasks.push({ envelope, roomId });
    else this.#startTask(envelope, roomId);
  }

  #startTask(envelope: TaskEnvelope, roomId: string): void {
    for (const handler of this.#handlers) {
      const control = createTaskContext(envelope, roomId, this.#runtime);
      const id = grantKeyId(control.key);
      const running = this.#tasks.get(id) ?? new Set<TaskControl>();
      running.add(control);
      this.#tasks.set(id, running);
      void Promise.resolve()
        .then(() => handler(envelope.payload, control.ctx))
        .catch((error: unknown) => {
          if (!isTaskStopped(error)) this.#onError(error);
        })
        .finally(() => {
          running.delete(control);
          if (running.size === 0 && this.#tasks.get(id) === running) this.#tasks.delete(id);
        });
    }
  }
}
