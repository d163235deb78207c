// Time is injected (STYLE.md rule 8): production reads the system clock, tests pass their own.
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
