// The MCP endpoint's sessions (docs/decisions-mcp.md §1–§3): Streamable HTTP with the official
// SDK's web-standard transport, one transport and one McpServer per session, keyed by its
// Mcp-Session-Id. A session is opened by an agent's credential (HTTP Basic, the MQTT username and
// password) checked by the broker's own check (runtime/agent-verifier.ts), and is bound to that
// Authorization: a request naming the session with anything else is refused. The same "still
// valid" question the broker asks of an open MQTT connection is asked of each session, at every
// call and whenever the broker's connections are checked again, and a session whose answer turns
// false ends at once.
import { createHash, timingSafeEqual } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { CodedError } from '@shared/errors';
import type { Clock } from '../clock';
import { TokenBucketLimiter } from '../http/rate-limit';
import { moduleLogger } from '../logging/logger';
import type { StillValid } from '../mqtt/revalidate';
import { VERSION } from '../version';
import { AgentMcpSession, DEFAULT_MCP_LIMITS, type AgentSessionDeps, type McpLimits } from './agent-mcp-session';
import { registerAgentTools } from './agent-tools';
import { parseBasicAuth } from './basic-auth';

const log = moduleLogger('mcp');

/** The broker's check of an agent's credential: false, 'suspended', or how to ask again. */
export type VerifyAgent = (agentId: string, password: string) => Promise<false | 'suspended' | StillValid>;

export interface McpSessionsDeps extends Omit<AgentSessionDeps, 'limits'> {
  readonly verifyAgent: VerifyAgent;
  readonly clock: Clock;
  readonly limits?: Partial<McpLimits>;
}

interface Entry {
  readonly session: AgentMcpSession;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  /** SHA-256 of the Authorization header that opened it. */
  readonly authHash: Buffer;
  lastActive: number;
  busy: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

export class McpSessions {
  readonly #entries = new Map<string, Entry>();
  readonly #limits: McpLimits;
  readonly #calls: TokenBucketLimiter;
  readonly #idleTimer: NodeJS.Timeout;
  #closed = false;

  constructor(private readonly deps: McpSessionsDeps) {
    this.#limits = { ...DEFAULT_MCP_LIMITS, ...deps.limits };
    this.#calls = new TokenBucketLimiter({ ...this.#limits.callsPerAgent, clock: deps.clock });
    this.#idleTimer = setInterval(() => this.#endIdle(), Math.min(this.#limits.idleMs, 60_000));
    this.#idleTimer.unref();
  }

  /** Open sessions of an agent. */
  sessionsOf(agentId: string): number {
    let n = 0;
    for (const entry of this.#entries.values()) if (entry.session.agentId === agentId) n++;
    return n;
  }

  /**
   * One HTTP request to /mcp. `body` is the parsed JSON of a POST (undefined otherwise). Throws a
   * CodedError for what the HTTP layer answers itself (401, 403, 404, 429); the rest is the SDK's.
   */
  async handle(request: Request, body: unknown): Promise<Response> {
    if (this.#closed) throw new CodedError('SERVICE_UNAVAILABLE', 'The server is stopping.');
    const authorization = request.headers.get('authorization') ?? '';
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const entry = this.#entries.get(sessionId);
      if (!entry || !timingSafeEqual(entry.authHash, sha256(authorization)))
        // Not told apart: a session id alone never reveals whether it exists.
        throw new CodedError(
          'MCP_SESSION_NOT_FOUND',
          'No such MCP session for these credentials (it ended, or was never opened); initialize a new one.',
        );
      entry.lastActive = this.deps.clock.now();
      entry.busy += 1;
      try {
        return await entry.transport.handleRequest(request, body === undefined ? {} : { parsedBody: body });
      } finally {
        entry.busy -= 1;
        entry.lastActive = this.deps.clock.now();
      }
    }
    if (request.method !== 'POST' || !isInitializeRequest(body))
      throw new CodedError(
        'INVALID_REQUEST',
        'Without an Mcp-Session-Id header, only an initialize request is accepted.',
      );
    const credential = parseBasicAuth(authorization);
    if (!credential)
      throw new CodedError(
        'UNAUTHORIZED',
        'Authenticate with HTTP Basic: the agent id as user name and its credential as password.',
      );
    const verdict = await this.deps.verifyAgent(credential.agentId, credential.password);
    if (verdict === false) throw new CodedError('UNAUTHORIZED', 'Unknown agent id or wrong credential.');
    if (verdict === 'suspended')
      throw new CodedError('AGENT_SUSPENDED', `Agent ${credential.agentId} is suspended; a facilitator can resume it.`);
    if (this.sessionsOf(credential.agentId) >= this.#limits.sessionsPerAgent)
      throw new CodedError(
        'MCP_SESSION_LIMIT',
        `Agent ${credential.agentId} already has ${this.#limits.sessionsPerAgent} MCP sessions open; close one (HTTP DELETE) first.`,
      );
    return this.#open(credential.agentId, credential.password, verdict, authorization, request, body);
  }

  async #open(
    agentId: string,
    password: string,
    stillValid: StillValid,
    authorization: string,
    request: Request,
    body: unknown,
  ): Promise<Response> {
    const session = new AgentMcpSession(agentId, password, stillValid, { ...this.deps, limits: this.#limits });
    const server = new McpServer(
      { name: 'switchboard', title: 'Switchboard: Agent Ops Rooms', version: VERSION },
      {
        instructions:
          'You are an agent in moderated rooms. Join a room (join_room), then wait_for_task. When a task comes, post ' +
          'an ack, progress as you work and a result at the end (post), only with the message types your mic grant ' +
          'allows. A rejected post tells you why; do not repeat it unchanged.',
      },
    );
    registerAgentTools(server, {
      session,
      admit: () => this.#admit(session),
      now: () => this.deps.clock.now(),
      maxWaitSeconds: Math.floor(this.#limits.maxWaitMs / 1000),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => session.id,
      onsessionclosed: () => void this.end(session.id, 'the client closed the session'),
    });
    const entry: Entry = {
      session,
      transport,
      server,
      authHash: sha256(authorization),
      lastActive: this.deps.clock.now(),
      busy: 0,
    };
    this.#entries.set(session.id, entry);
    session.onEnd((why) => void this.end(session.id, why));
    transport.onclose = () => void this.end(session.id, 'the transport closed');
    await server.connect(transport);
    log.info({ agentId, session: session.id.slice(0, 8) }, 'an agent opened an MCP session');
    return transport.handleRequest(request, { parsedBody: body });
  }

  /** Before each tool call: the credential holds (else the session ends), and the agent has calls left. */
  async #admit(session: AgentMcpSession): Promise<void> {
    if (!(await session.stillValid().catch(() => true))) {
      void this.end(session.id, 'the agent’s credential was suspended, removed or rotated');
      throw new CodedError(
        'MCP_SESSION_ENDED',
        'This agent was suspended, removed or disconnected; the session has ended.',
      );
    }
    const verdict = this.#calls.take(session.agentId);
    if (!verdict.ok)
      throw new CodedError('RATE_LIMITED', `Too many tool calls; try again in ${verdict.retryAfterSeconds} s.`, {
        retryAfterSeconds: verdict.retryAfterSeconds,
      });
  }

  /** Ends one session: its connections close (offline in its rooms), its transport closes. */
  async end(sessionId: string, why: string): Promise<void> {
    const entry = this.#entries.get(sessionId);
    if (!entry) return;
    this.#entries.delete(sessionId);
    log.info({ agentId: entry.session.agentId, session: sessionId.slice(0, 8), why }, 'an MCP session ended');
    await entry.session.close(why);
    await entry.server.close().catch(() => undefined);
  }

  /**
   * Asks every session's credential again (as the broker does for its connections) and ends those
   * no longer valid; resolves to how many ended.
   */
  async revalidate(): Promise<number> {
    const entries = [...this.#entries.entries()];
    const verdicts = await Promise.all(
      entries.map(async ([id, entry]) => {
        // A store that cannot answer ends nothing; the next call asks again.
        const valid = await entry.session.stillValid().catch(() => true);
        if (!valid) await this.end(id, 'the agent’s credential was suspended, removed or rotated');
        return !valid;
      }),
    );
    return verdicts.filter(Boolean).length;
  }

  #endIdle(): void {
    const now = this.deps.clock.now();
    for (const [id, entry] of this.#entries)
      if (entry.busy === 0 && now - entry.lastActive >= this.#limits.idleMs)
        void this.end(id, 'no request for too long');
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#idleTimer);
    await Promise.all([...this.#entries.keys()].map((id) => this.end(id, 'the server is stopping')));
  }
}
