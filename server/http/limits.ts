// The HTTP side's budgets (docs/decisions-server.md §26–§27): how many requests a
// client address or a verified DID may make, and how many long-polls one address may hold open.
// Each rate is a token bucket written `N/window` ("30/min"): a burst of N, refilled at N per
// window. Defaults are far above what the demo agents, the soak and the e2e journeys send.

export interface Rate {
  readonly capacity: number;
  readonly refillPerSecond: number;
}

export interface HttpLimits {
  /**
   * Failed sign-ins and enrollments per client address; past it a failure is answered 429, and an
   * attempt whose signature verifies is never refused by it (decisions-server.md §42).
   */
  readonly authPerAddress: Rate;
  /** Challenges and logouts per client address: a challenge is what a sign-in's work is bounded by. */
  readonly authChallengesPerAddress: Rate;
  /** Sessions opened (login, enroll) per operator DID, counted once its signature verifies. */
  readonly authPerDid: Rate;
  /** POST /events per client address, counted before the body is read. */
  readonly relayPerAddress: Rate;
  /** POST /events per signer DID, counted once the envelope's signature verifies. */
  readonly relayPerDid: Rate;
  /** Directory registrations (POST /agents, or posted to /events) per client address, before the body is read. */
  readonly directoryPerAddress: Rate;
  /** Directory registrations per signer DID, counted once the registration's signature verifies. */
  readonly directoryPerDid: Rate;
  /** GET /events long-polls one client address may hold open at once. */
  readonly longPollsPerAddress: number;
  /** POST /api/ledger/burns per client address, counted before the body is read. */
  readonly burnsPerAddress: Rate;
  /** POST /api/ledger/burns per burner DID, counted once the burn's signature verifies. */
  readonly burnsPerDid: Rate;
  /** POST /oap/negotiation/open per client address, counted before the body is read. */
  readonly negotiationOpensPerAddress: Rate;
  /** POST /oap/negotiation/open per opening DID, counted once the open document verifies. */
  readonly negotiationOpensPerDid: Rate;
  /** PATCH /api/me and POST /api/presence per client address, counted once the session is known. */
  readonly operatorWritesPerAddress: Rate;
  /** The same per operator DID: a console page beats every 15 s, a few tabs each. */
  readonly operatorWritesPerDid: Rate;
  /** Webhook writes (add, remove, send a test) per client address, before the body is read. */
  readonly webhooksPerAddress: Rate;
  /** Webhook writes per facilitator DID: each test is an outgoing request, each endpoint a destination. */
  readonly webhooksPerDid: Rate;
  /** A2A agent imports (import, re-import, remove) per client address, before the body is read. */
  readonly importsPerAddress: Rate;
  /** A2A agent imports per facilitator DID: each import or re-import is a request the server makes. */
  readonly importsPerDid: Rate;
  /** RFC 9421 signed reads of a negotiation per client address, before the signature is checked. */
  readonly signedReadsPerAddress: Rate;
  /** Signed reads per signer DID once the signature verifies: what bounds the nonce memory (decisions-server.md §78). */
  readonly signedReadsPerDid: Rate;
}

const WINDOW_SECONDS = { s: 1, min: 60, h: 3600 } as const;

/** "30/min" → a burst of 30 refilled at 0.5 per second; undefined when it is not that shape. */
export function parseRate(text: string): Rate | undefined {
  const match = /^(\d{1,7})\/(s|min|h)$/.exec(text.trim());
  if (!match) return undefined;
  const capacity = Number(match[1]);
  if (capacity < 1) return undefined;
  return { capacity, refillPerSecond: capacity / WINDOW_SECONDS[match[2] as keyof typeof WINDOW_SECONDS] };
}

const rate = (text: string): Rate => parseRate(text)!;

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  authPerAddress: rate('30/min'),
  authChallengesPerAddress: rate('600/min'),
  authPerDid: rate('10/min'),
  // The soak posts 20 signed REQUESTs a second from one DID on loopback; the demo agents far fewer.
  relayPerAddress: rate('6000/min'),
  relayPerDid: rate('1800/min'),
  // The demo registers about ten agents at start, the e2e directory journey 60 at once; an agent
  // registers again only when its manifest changes (decisions-agora.md §38).
  directoryPerAddress: rate('120/min'),
  directoryPerDid: rate('20/min'),
  // The soak holds 20 long-polls from loopback, the demo agents about a dozen.
  longPollsPerAddress: 64,
  // A burn pays for one invitation (OACoP §6.2); the demo and the journeys burn a handful.
  burnsPerAddress: rate('300/min'),
  burnsPerDid: rate('60/min'),
  // The demo opens a few negotiations a minute, the journeys a handful; each may end in a
  // permanent log entry, so a burst of self-dealing ones is what this bounds.
  negotiationOpensPerAddress: rate('120/min'),
  negotiationOpensPerDid: rate('30/min'),
  // A page's heartbeat is 4/min; a team of facilitators behind one address keeps many pages open.
  operatorWritesPerAddress: rate('600/min'),
  operatorWritesPerDid: rate('120/min'),
  // A facilitator sets endpoints up by hand and presses "Send test" a few times; a loop that
  // makes the server POST to an address of its choosing is what this bounds.
  webhooksPerAddress: rate('60/min'),
  webhooksPerDid: rate('20/min'),
  // A facilitator imports agents by hand, a few at a time; a loop that makes the server fetch an
  // address of its choosing is what this bounds, as for webhooks.
  importsPerAddress: rate('60/min'),
  importsPerDid: rate('20/min'),
  // An agent's negotiation client reads the state after each step and while it waits for the
  // other party, every few seconds at most.
  signedReadsPerAddress: rate('1200/min'),
  signedReadsPerDid: rate('240/min'),
};

/** For tests and benches that measure something else: no budget is ever reached. */
export const UNLIMITED_HTTP_LIMITS: HttpLimits = {
  authPerAddress: { capacity: 1e9, refillPerSecond: 1e9 },
  authChallengesPerAddress: { capacity: 1e9, refillPerSecond: 1e9 },
  authPerDid: { capacity: 1e9, refillPerSecond: 1e9 },
  relayPerAddress: { capacity: 1e9, refillPerSecond: 1e9 },
  relayPerDid: { capacity: 1e9, refillPerSecond: 1e9 },
  directoryPerAddress: { capacity: 1e9, refillPerSecond: 1e9 },
  directoryPerDid: { capacity: 1e9, refillPerSecond: 1e9 },
  longPollsPerAddress: 1e9,
  burnsPerAddress: { capacity: 1e9, refillPerSecond: 1e9 },
  burnsPerDid: { capacity: 1e9, refillPerSecond: 1e9 },
  negotiationOpensPerAddress: { capacity: 1e9, refillPerSecond: 1e9 },
  negotiationOpensPerDid: { capacity: 1e9, refillPerSecond: 1e9 },
  operatorWritesPerAddress: { capacity: 1e9, refillPerSecond: 1e9 },
  operatorWritesPerDid: { capacity: 1e9, refillPerSecond: 1e9 },
  webhooksPerAddress: { capacity: 1e9, refillPerSecond: 1e9 },
  webhooksPerDid: { capacity: 1e9, refillPerSecond: 1e9 },
  importsPerAddress: { capacity: 1e9, refillPerSecond: 1e9 },
  importsPerDid: { capacity: 1e9, refillPerSecond: 1e9 },
  signedReadsPerAddress: { capacity: 1e9, refillPerSecond: 1e9 },
  signedReadsPerDid: { capacity: 1e9, refillPerSecond: 1e9 },
};

/**
 * The HTTP listener (runtime/http-listener.ts listenHttp, decisions-server.md §44): how long receiving one
 * request may take, and how many connections one client address may hold open. The soak and the
 * e2e journeys hold well under 100 from loopback.
 */
export interface ListenLimits {
  readonly requestTimeoutMs: number;
  readonly connectionsPerAddress: number;
}

export const DEFAULT_LISTEN_LIMITS: ListenLimits = { requestTimeoutMs: 30_000, connectionsPerAddress: 256 };
