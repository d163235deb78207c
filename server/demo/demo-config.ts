// The demo's knobs: its room, its agents' ids, how fast it runs, and the clock, timers and ids
// it uses, all injectable so a test runs the same demo quickly and replays it.

export const DEMO_ROOM = { id: 'demo', name: 'Demo room' } as const;

/** The facilitator the demo speaks as (AOR §4 `from`, kind "user"). */
export const DEMO_FACILITATOR = { kind: 'user', id: 'demo.facilitator' } as const;

/** A closed range of milliseconds; each wait draws from it with the seeded PRNG. */
export type Span = readonly [min: number, max: number];

export interface DemoPace {
  /** Before the first task, so a newcomer sees agents arrive first. */
  readonly firstTaskDelayMs: number;
  /** Calm between one task's end and the next task (BRIEF: a human can watch). */
  readonly taskGapMs: Span;
  /** An agent's "thinking" before each message it posts. */
  readonly stepDelayMs: Span;
  /** The facilitator's delay before answering a clarifying question. */
  readonly answerDelayMs: Span;
  /** How long an agent waits for an answer to its question. */
  readonly askTimeoutMs: number;
  /** How long an agent waits for the mic after a task arrives. */
  readonly grantWaitMs: number;
  /** Grants expire this many seconds after they are given (AOR §5.3 "time-boxed"). */
  readonly grantTtlSeconds: number;
  /** The facilitator gives up on a task this long after assigning it. */
  readonly episodeTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
}

export const DEFAULT_PACE: DemoPace = {
  firstTaskDelayMs: 5_000,
  taskGapMs: [20_000, 40_000],
  stepDelayMs: [1_500, 4_000],
  answerDelayMs: [2_000, 5_000],
  askTimeoutMs: 60_000,
  grantWaitMs: 30_000,
  grantTtlSeconds: 180,
  episodeTimeoutMs: 200_000,
  heartbeatIntervalMs: 5_000,
};

/**
 * `DEMO_PACE=fast`: the same demo, quick enough for a journey test or a short screen recording.
 * Each step still waits long enough for a console to show it on its own.
 */
export const FAST_PACE: DemoPace = {
  firstTaskDelayMs: 1_000,
  taskGapMs: [1_000, 3_000],
  stepDelayMs: [300, 800],
  answerDelayMs: [300, 800],
  askTimeoutMs: 15_000,
  grantWaitMs: 10_000,
  grantTtlSeconds: 60,
  episodeTimeoutMs: 90_000,
  heartbeatIntervalMs: 1_000,
};

/** The paces `DEMO_PACE` names. */
export const DEMO_PACES = { calm: DEFAULT_PACE, fast: FAST_PACE } as const;
export type DemoPaceName = keyof typeof DEMO_PACES;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_TIMERS: Timers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Waits `ms`; resolves false at once (and early) if `signal` aborts, true otherwise. */
export function sleep(timers: Timers, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      timers.clearTimeout(handle);
      resolve(false);
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
