// Work that must run once per cluster, not once per instance: the sweepers
// (expired grants, timed-out threads, expired negotiations) and the demo agents. With PostgreSQL
// the instances elect one holder through a session-level advisory lock taken on a dedicated
// connection: the lock lives exactly as long as that connection, so when the holder dies (or
// its connection does) PostgreSQL releases it and another instance's next try takes over.
// Without DATABASE_URL there is one instance: the work starts at once (docs/decisions-cluster.md).
import type { LineLogger } from '../logging/logger';

/** pg_try_advisory_lock(int4, int4): a namespace of Switchboard's own and the lock in it. */
export const RUN_ONCE_LOCK = { namespace: 0x53574244 /* "SWBD" */, key: 1 } as const;

/** Held while a stopping instance decides whether to leave the share group, one instance at a time. */
export const SHARE_LEAVE_LOCK = { namespace: RUN_ONCE_LOCK.namespace, key: 2 } as const;

/** Starts the cluster's once-only work; returns how to stop it. */
export type StartWork = () => Promise<() => Promise<void>>;

export interface RunOnceOptions {
  /** DATABASE_URL; undefined: a single instance, the work runs here. */
  readonly databaseUrl: string | undefined;
  readonly start: StartWork;
  /** How often a follower tries the lock, and the holder checks its connection (default 2 s). */
  readonly retryMs?: number;
  readonly log?: LineLogger;
}

export interface RunOnce {
  /** True while this instance runs the work. */
  readonly leading: boolean;
  /** Stops the work if it runs here and gives the lock up. */
  stop(): Promise<void>;
  /**
   * Calls `leave` (the stopping instance leaving the share group) only if another instance will
   * still be running: each holds a run-once connection, leader or not. Instances stopping at the
   * same moment decide one at a time, and one that left stops counting, so the last of them stays
   * (docs/decisions-cluster.md C4). Alone, or when it cannot be told, it stays. Resolves whether it left.
   */
  leaveUnlessLast(leave: () => Promise<void>): Promise<boolean>;
}

/**
 * Starts electing; resolves after the first try, so a lone instance (or the first of a cluster)
 * has its work running when this returns.
 */
export async function startRunOnce(options: RunOnceOptions): Promise<RunOnce> {
  if (options.databaseUrl === undefined) {
    const stopWork = await options.start();
    let stopped = false;
    return {
      get leading() {
        return !stopped;
      },
      leaveUnlessLast: async () => false,
      async stop() {
        if (stopped) return;
        stopped = true;
        await stopWork();
      },
    };
  }
  // Loaded only with DATABASE_URL: a SQLite server never holds the PostgreSQL driver in memory.
  const { PgElection } = await import('./pg-election');
  const election = new PgElection(options.databaseUrl, options);
  await election.attempt();
  return election;
}
