// One agent's MCP session (docs/decisions-mcp.md §1, §3): it speaks AOR as the agent itself, over
// one MQTT connection per joined room with the agent's own credential (agents/aor's connectAgent),
// so the broker's ACL and per-agent quotas, the gateway's decision and the presence tracker treat
// an MCP agent exactly as any other; this class only turns that traffic into answers a tool call
// can wait for: tasks and grants that name the agent, the verdict on each candidate, the answers
// to its questions.
import { randomUUID } from 'node:crypto';
import { buildEnvelope } from '@shared/aor/control-envelopes';
import type { Envelope, ResultEnvelope } from '@shared/aor/envelope';
import { isValidId } from '@shared/aor/ids';
import type { MessageType, MicGrantPayload, TaskPayload } from '@shared/aor/payloads';
import { CodedError } from '@shared/errors';
import { connectAgent, type AgentClient, type CandidateOutcome } from '@agents/aor/agent-client';
import { mentionsAgent } from '@agents/aor/mentions';
import type { Clock } from '../clock';
import type { StillValid } from '../mqtt/revalidate';
import type { StoredRoomMessage, Store } from '../store/store';

export interface McpLimits {
  /** MCP sessions one agent may hold at once. */
  readonly sessionsPerAgent: number;
  /** Rooms one session may join (each is one MQTT connection). */
  readonly roomsPerSession: number;
  /** Long-polls (wait_for_task, wait_for_answer, a post awaiting its verdict) one session may hold at once. */
  readonly waitsPerSession: number;
  /** The longest a wait may last, whatever the caller asks. */
  readonly maxWaitMs: number;
  /** A session with no request for this long ends (its client is gone without a DELETE). */
  readonly idleMs: number;
  /** Tool calls per agent: a burst, refilled per second (every write also meets the broker's quotas). */
  readonly callsPerAgent: { readonly capacity: number; readonly refillPerSecond: number };
}

/** Far above an LLM agent's pace (a call every few seconds); far below what floods a room. */
export const DEFAULT_MCP_LIMITS: McpLimits = {
  sessionsPerAgent: 4,
  roomsPerSession: 8,
  waitsPerSession: 4,
  // Under the MCP SDK client's default request timeout of 60 s, so a wait answers before it.
  maxWaitMs: 50_000,
  idleMs: 10 * 60_000,
  callsPerAgent: { capacity: 120, refillPerSecond: 2 },
};

export interface AgentSessionDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** Where agents reach the broker (the embedded broker's TCP listener, or MQTT_URL). */
  readonly brokerUrl: () => string;
  /** The topic candidates go to on this broker (an external broker's per-agent subtopic). */
  readonly candidateTopic?: (roomId: string, agentId: string) => string;
  readonly limits: McpLimits;
}

/** A task or grant that names this agent, as wait_for_task answers it. */
export interface TaskNotice {
  readonly roomId: string;
  readonly taskId: string;
  readonly goal: string | null;
  readonly format: string | null;
  /** Unix seconds. */
  readonly deadline: number | null;
  readonly grant: {
    readonly allowedMessageTypes: readonly string[];
    readonly maxMessages: number;
    readonly spent: number | null;
    /** Unix seconds. */
    readonly expiresAt: number;
    readonly ended: string | null;
  } | null;
}

interface WorkItem {
  task?: TaskPayload;
  grant?: MicGrantPayload;
  /** When it was first heard (ms); 0 for what a join found already there. */
  notedAt: number;
}

/**
 * A facilitator sends the grant just before the task (web/lib/mqtt/publish.ts assignTask): a grant
 * heard without its task is handed out alone only after this long, so its goal comes with it.
 */
const TASK_AFTER_GRANT_MS = 1_000;

export interface RoomView {
  readonly roomId: string;
  readonly name: string;
  readonly joined: boolean;
  readonly grants: readonly {
    readonly taskId: string;
    readonly allowedMessageTypes: readonly string[];
    readonly expiresAt: number;
  }[];
}

export interface HistoryLine {
  readonly cursor: number;
  readonly from: string;
  readonly type: string;
  readonly messageType: string | null;
  readonly taskId: string | null;
  readonly text: string;
  /** Milliseconds since the epoch, when the server received it. */
  readonly receivedAt: number;
}

export interface HistoryPage {
  readonly messages: readonly HistoryLine[];
  /** Pass as `before` for the page before this one; null at the start of history. */
  readonly nextBefore: number | null;
}

const MAX_ROOMS_LISTED = 200;
const MAX_LINE_CHARS = 2_000;

/** A stored public message as a line of text: the say's text, or the disclosure's content. */
function historyLine(m: StoredRoomMessage): HistoryLine {
  let envelope: { type?: unknown; payload?: Record<string, unknown> } = {};
  try {
    envelope = JSON.parse(new TextDecoder().decode(m.payload)) as typeof envelope;
  } catch {
    // Only well-formed envelopes reach public; a line is still given for anything else.
  }
  const payload = envelope.payload ?? {};
  const content = (payload.content ?? payload) as Record<string, unknown>;
  const parts = [
    content.text,
    content.question,
    ...(Array.isArray(content.bullets) ? content.bullets : []),
    content.label,
    content.url,
  ];
  const text = parts.filter((p): p is string => typeof p === 'string').join(' · ') || JSON.stringify(content);
  return {
    cursor: m.cursor,
    from: m.fromId ?? 'unknown',
    type: m.type ?? (typeof envelope.type === 'string' ? envelope.type : 'unknown'),
    messageType: typeof payload.message_type === 'string' ? payload.message_type : null,
    taskId: typeof payload.task_id === 'string' ? payload.task_id : null,
    text: text.slice(0, MAX_LINE_CHARS),
    receivedAt: m.receivedAt,
  };
}

const MAX_KNOWN_TASKS = 200;
/** How long a clean close (offline heartbeat, DISCONNECT) may take before the socket is just dropped. */
const CLOSE_WAIT_MS = 2_000;

/**
 * A clean close says "offline" in the room; a connection the broker already closed (a suspension)
 * cannot, and its will has said it: after CLOSE_WAIT_MS the socket is dropped.
 */
async function closeAgent(agent: AgentClient): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
  await Promise.race([agent.close().catch(() => undefined), late]);
  clearTimeout(timer);
  if (!agent.mqtt.disconnected) agent.mqtt.end(true);
}
const MAX_ANSWERS_PER_ROOM = 20;
const RECENT_INBOX = 50;

export class AgentMcpSession {
  readonly id = randomUUID();
  readonly #rooms = new Map<string, AgentClient>();
  readonly #joining = new Set<string>();
  readonly #work = new Map<string, WorkItem>();
  /** Keys of work items not yet handed out by wait_for_task, oldest first. */
  readonly #pending: string[] = [];
  readonly #taskWaiters = new Set<() => void>();
  readonly #answers = new Map<string, string[]>();
  readonly #answerWaiters = new Set<() => void>();
  #waits = 0;
  #ended: string | undefined;
  #onEnd: ((why: string) => void) | undefined;

  constructor(
    readonly agentId: string,
    readonly password: string,
    readonly stillValid: StillValid,
    private readonly deps: AgentSessionDeps,
  ) {}

  get ended(): string | undefined {
    return this.#ended;
  }

  get joined(): readonly string[] {
    return [...this.#rooms.keys()];
  }

  /** Called once when the session ends by itself (its broker connection was closed). */
  onEnd(handler: (why: string) => void): void {
    this.#onEnd = handler;
  }

  /** Joins a room: connects as the agent, subscribes to its §8 topics there, and starts heartbeating. */
  async join(roomId: string): Promise<{ readonly joined: boolean }> {
    this.#live();
    if (!isValidId(roomId))
      throw new CodedError('INVALID_REQUEST', 'A room id is 1–128 characters without spaces, /, + or #.');
    if (this.#rooms.has(roomId)) return { joined: false };
    if (this.#rooms.size + this.#joining.size >= this.deps.limits.roomsPerSession)
      throw new CodedError(
        'MCP_LIMIT',
        `This session has joined ${this.deps.limits.roomsPerSession} rooms, the most one session may; leave one first.`,
      );
    if (!(await this.deps.store.rooms.getRoom(roomId)))
      throw new CodedError('ROOM_NOT_FOUND', `There is no room "${roomId}"; my_rooms lists the rooms there are.`);
    this.#joining.add(roomId);
    let agent: AgentClient;
    try {
      agent = await connectAgent({
        url: this.deps.brokerUrl(),
        agentId: this.agentId,
        password: this.password,
        rooms: [roomId],
        description: `${this.agentId} (via MCP)`,
        // Within the agent's own client-id namespace (mqtt/client-ids.ts): one connection per room.
        clientId: `${this.agentId}/mcp-${this.id.slice(0, 8)}-${roomId}`.slice(0, 200),
        reconnectPeriodMs: 0,
        outcomeTimeoutMs: this.deps.limits.maxWaitMs,
        now: () => this.deps.clock.now(),
        ...(this.deps.candidateTopic ? { candidateTopic: this.deps.candidateTopic } : {}),
        onError: () => undefined,
      });
    } catch (error) {
      throw new CodedError('BROKER_UNAVAILABLE', `Could not join "${roomId}": ${(error as Error).message}`);
    } finally {
      this.#joining.delete(roomId);
    }
    if (this.#ended) {
      await closeAgent(agent);
      this.#live();
    }
    this.#rooms.set(roomId, agent);
    agent.onEnvelope((topic, envelope) => this.#heard(topic.kind, roomId, envelope));
    // The broker closed it (a suspension, removal, rotation or "disconnect now"): the session ends with it.
    agent.mqtt.once('close', () => {
      if (!this.#ended && this.#rooms.get(roomId) === agent)
        this.#end('the broker closed the agent’s connection (suspended, removed or disconnected)');
    });
    await this.#catchUp(roomId);
    return { joined: true };
  }

  /** Leaves a room: an offline heartbeat there, then the connection closes. */
  async leave(roomId: string): Promise<boolean> {
    this.#live();
    const agent = this.#rooms.get(roomId);
    if (!agent) return false;
    this.#rooms.delete(roomId);
    await closeAgent(agent);
    return true;
  }

  /**
   * The oldest task or grant naming this agent not yet handed out, waiting up to `waitMs` for one;
   * null when none came. Only rooms this session joined are heard.
   */
  async waitForTask(waitMs: number, signal: AbortSignal): Promise<TaskNotice | null> {
    this.#live();
    if (this.#rooms.size === 0)
      throw new CodedError('NOT_JOINED', 'Join a room first (join_room): tasks are heard only in joined rooms.');
    return this.#waitFor(this.#taskWaiters, waitMs, signal, async () => {
      const now = Date.now();
      const at = this.#pending.findIndex((key) => {
        const item = this.#work.get(key);
        return item !== undefined && (item.task !== undefined || now - item.notedAt >= TASK_AFTER_GRANT_MS);
      });
      if (at < 0) return undefined;
      const [key] = this.#pending.splice(at, 1);
      return this.#notice(key!);
    });
  }

  /** Posts one §6 disclosure as a `result` candidate through the broker, and waits for the gateway's verdict. */
  async post(
    roomId: string,
    taskId: string,
    messageType: MessageType,
    content: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CandidateOutcome> {
    const agent = this.#room(roomId);
    // Checked like any agent's envelope: malformed content is the gateway's `invalid_envelope`, said before sending.
    const envelope: ResultEnvelope = buildEnvelope(
      {
        type: 'result',
        roomId,
        from: { kind: 'agent', id: this.agentId },
        payload: { task_id: taskId, message_type: messageType, content } as ResultEnvelope['payload'],
      },
      { newId: () => `msg_${randomUUID()}`, now: this.deps.clock.now() / 1000 },
    );
    const release = this.#acquireWait();
    try {
      const outcome = agent.submit(envelope, roomId);
      const aborted = new Promise<CandidateOutcome>((resolve) =>
        signal.addEventListener('abort', () => resolve({ status: 'unknown', messageId: envelope.id, why: 'closed' }), {
          once: true,
        }),
      );
      return await Promise.race([outcome, aborted]);
    } catch (error) {
      throw new CodedError(
        'PUBLISH_REFUSED',
        `The broker refused the message: ${(error as Error).message}. A per-agent quota may be exhausted; wait and try again.`,
      );
    } finally {
      release();
    }
  }

  /** The next `say` in the room that mentions @agentId (AOR §6.2: the user replies with say). */
  async waitForAnswer(roomId: string, waitMs: number, signal: AbortSignal): Promise<string | null> {
    this.#room(roomId);
    return this.#waitFor(this.#answerWaiters, waitMs, signal, async () => this.#answers.get(roomId)?.shift());
  }

  /** Every room there is, whether this session joined it, and this agent's live grants in it. */
  async rooms(): Promise<RoomView[]> {
    this.#live();
    const [rooms, grants] = await Promise.all([
      this.deps.store.rooms.listRooms(),
      this.deps.store.rooms.listGrants({ active: true }),
    ]);
    const mine = grants.filter((g) => g.agentId === this.agentId);
    return rooms.slice(0, MAX_ROOMS_LISTED).map((room) => ({
      roomId: room.id,
      name: room.name,
      joined: this.#rooms.has(room.id),
      grants: mine
        .filter((g) => g.roomId === room.id)
        .map((g) => ({ taskId: g.taskId, allowedMessageTypes: g.allowedTypes, expiresAt: g.expiresAt })),
    }));
  }

  /** A page of the room's public messages (AOR §3: what any agent may read), oldest first. */
  async history(roomId: string, limit: number, before: number | undefined): Promise<HistoryPage> {
    this.#live();
    if (!isValidId(roomId) || !(await this.deps.store.rooms.getRoom(roomId)))
      throw new CodedError('ROOM_NOT_FOUND', `There is no room "${String(roomId).slice(0, 128)}".`);
    const page = await this.deps.store.rooms.listMessages({
      roomId,
      topicKinds: ['public'],
      limit,
      ...(before === undefined ? {} : { before }),
    });
    return {
      messages: page.messages.map(historyLine),
      nextBefore: page.hasMore && page.messages.length > 0 ? page.messages[0]!.cursor : null,
    };
  }

  /** Ends the session: an offline heartbeat in every room, connections closed, waits answered. */
  async close(why = 'the session was closed'): Promise<void> {
    if (!this.#ended) this.#ended = why;
    this.#wakeAll();
    const agents = [...this.#rooms.values()];
    this.#rooms.clear();
    await Promise.all(agents.map(closeAgent));
  }

  #end(why: string): void {
    if (this.#ended) return;
    void this.close(why);
    this.#onEnd?.(why);
  }

  #live(): void {
    if (this.#ended) throw new CodedError('MCP_SESSION_ENDED', `This session has ended: ${this.#ended}.`);
  }

  #room(roomId: string): AgentClient {
    this.#live();
    const agent = this.#rooms.get(roomId);
    if (!agent)
      throw new CodedError('NOT_JOINED', `This session has not joined "${roomId}"; call join_room first.`, { roomId });
    return agent;
  }

  #acquireWait(): () => void {
    if (this.#waits >= this.deps.limits.waitsPerSession)
      throw new CodedError(
        'MCP_LIMIT',
        `This session already has ${this.deps.limits.waitsPerSession} calls waiting; let one finish first.`,
      );
    this.#waits += 1;
    let released = false;
    return () => {
      if (!released) this.#waits -= 1;
      released = true;
    };
  }

  async #waitFor<T>(
    waiters: Set<() => void>,
    waitMs: number,
    signal: AbortSignal,
    take: () => Promise<T | undefined>,
  ): Promise<T | null> {
    const release = this.#acquireWait();
    const deadline = Date.now() + Math.min(Math.max(0, waitMs), this.deps.limits.maxWaitMs);
    try {
      for (;;) {
        this.#live();
        const found = await take();
        if (found !== undefined) return found;
        const left = deadline - Date.now();
        if (left <= 0 || signal.aborted) return null;
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            signal.removeEventListener('abort', wake);
            resolve();
          };
          // Looked at again at least every TASK_AFTER_GRANT_MS: a lone grant becomes due by time.
          const timer = setTimeout(wake, Math.min(left, TASK_AFTER_GRANT_MS));
          waiters.add(wake);
          signal.addEventListener('abort', wake, { once: true });
        });
      }
    } finally {
      release();
    }
  }

  #wakeAll(): void {
    for (const wake of [...this.#taskWaiters, ...this.#answerWaiters]) wake();
  }

  #heard(kind: string, roomId: string, envelope: Envelope): void {
    if (kind === 'inbox' && envelope.type === 'task')
      this.#note(roomId, envelope.payload.task_id, { task: envelope.payload });
    else if (kind === 'control' && envelope.type === 'mic_grant' && envelope.payload.agent_id === this.agentId)
      this.#note(roomId, envelope.payload.task_id, { grant: envelope.payload });
    else if (kind === 'public' && envelope.type === 'say' && mentionsAgent(envelope.payload.text, this.agentId)) {
      const answers = this.#answers.get(roomId) ?? [];
      answers.push(envelope.payload.text);
      if (answers.length > MAX_ANSWERS_PER_ROOM) answers.shift();
      this.#answers.set(roomId, answers);
      for (const wake of [...this.#answerWaiters]) wake();
    }
  }

  /** A task or grant for (room, task): remembered, and queued once for wait_for_task. */
  #note(roomId: string, taskId: string, item: Omit<WorkItem, 'notedAt'>, notedAt = Date.now()): void {
    const key = JSON.stringify([roomId, taskId]);
    const known = this.#work.get(key);
    this.#work.set(key, { notedAt, ...known, ...item });
    if (!known) {
      this.#pending.push(key);
      if (this.#work.size > MAX_KNOWN_TASKS) {
        const oldest = this.#work.keys().next().value!;
        this.#work.delete(oldest);
        const at = this.#pending.indexOf(oldest);
        if (at >= 0) this.#pending.splice(at, 1);
      }
    }
    for (const wake of [...this.#taskWaiters]) wake();
  }

  /** On joining: live grants for this agent in the room, with their tasks from recent inbox history. */
  async #catchUp(roomId: string): Promise<void> {
    const grants = (await this.deps.store.rooms.listGrants({ roomId, active: true })).filter(
      (g) => g.agentId === this.agentId,
    );
    if (grants.length === 0) return;
    const inbox = await this.deps.store.rooms.listMessages({
      roomId,
      topicKinds: ['inbox'],
      agentId: this.agentId,
      types: ['task'],
      limit: RECENT_INBOX,
    });
    const tasks = new Map<string, TaskPayload>();
    for (const m of inbox.messages) {
      try {
        const parsed = JSON.parse(new TextDecoder().decode(m.payload)) as { payload?: TaskPayload };
        if (m.topicAgentId === this.agentId && parsed.payload?.task_id)
          tasks.set(parsed.payload.task_id, parsed.payload);
      } catch {
        // A stored inbox message that is not JSON names no task.
      }
    }
    for (const g of grants) {
      const task = tasks.get(g.taskId);
      this.#note(roomId, g.taskId, task ? { task } : {}, 0);
    }
  }

  async #notice(key: string): Promise<TaskNotice | undefined> {
    const [roomId, taskId] = JSON.parse(key) as [string, string];
    const item = this.#work.get(key);
    if (!item) return undefined;
    const stored = await this.deps.store.rooms.getGrant(roomId, this.agentId, taskId);
    const heard = item.grant;
    return {
      roomId,
      taskId,
      goal: item.task?.goal ?? null,
      format: item.task?.format ?? null,
      deadline: item.task?.deadline ?? null,
      grant: stored
        ? {
            allowedMessageTypes: stored.allowedTypes,
            maxMessages: stored.maxMessages,
            spent: stored.spent,
            expiresAt: stored.expiresAt,
            ended: stored.endReason,
          }
        : heard
          ? {
              allowedMessageTypes: heard.allowed_message_types,
              maxMessages: heard.max_messages,
              spent: null,
              expiresAt: heard.expires_at,
              ended: null,
            }
          : null,
    };
  }
}
