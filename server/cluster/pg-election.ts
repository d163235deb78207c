// The cluster's once-only work elected through a PostgreSQL advisory lock (run-once.ts describes
// the election; docs/decisions-cluster.md).
import { Client } from 'pg';
import { describePgError } from '../store/pg/pg-pool';
import { RUN_ONCE_LOCK, SHARE_LEAVE_LOCK, type RunOnce, type RunOnceOptions, type StartWork } from './run-once';
import { moduleLogger, type LineLogger } from '../logging/logger';

const log = moduleLogger('cluster');

/** How each instance's run-once connection names itself to PostgreSQL (counted by leaveUnlessLast). */
const RUN_ONCE_APPLICATION = 'switchboard-run-once';
/** The same connection's name once its instance has left the share group, so the others no longer count it. */
const LEAVING_APPLICATION = 'switchboard-leaving';

export class PgElection implements RunOnce {
  readonly #url: string;
  readonly #start: StartWork;
  readonly #retryMs: number;
  readonly #log: LineLogger;
  #client: Client | undefined;
  #stopWork: (() => Promise<void>) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  /** One try or one check at a time; stop() waits for it. */
  #busy: Promise<void> = Promise.resolve();

  constructor(url: string, options: RunOnceOptions) {
    this.#url = url;
    this.#start = options.start;
    this.#retryMs = options.retryMs ?? 2_000;
    this.#log = options.log ?? ((msg, fields) => log.info(fields ?? {}, msg));
  }

  get leading(): boolean {
    return this.#stopWork !== undefined;
  }

  /** One try (or, holding the lock, one check that its connection is alive); then the next is scheduled. */
  attempt(): Promise<void> {
    this.#busy = this.#busy.then(() => this.#step()).finally(() => this.#schedule());
    return this.#busy;
  }

  #schedule(): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.attempt(), this.#retryMs);
    this.#timer.unref();
  }

  async #step(): Promise<void> {
    if (this.#stopped) return;
    try {
      const client = await this.#connection();
      if (this.leading) {
        // A connection PostgreSQL dropped may not have said so yet: ask.
        await client.query('SELECT 1');
        return;
      }
      const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
        RUN_ONCE_LOCK.namespace,
        RUN_ONCE_LOCK.key,
      ]);
      if (!result.rows[0]?.locked || this.#stopped) return;
      try {
        this.#stopWork = await this.#start();
      } catch (error) {
        // Give the lock up (with the connection) so that another instance, or a later try, runs it.
        await this.#lost('starting the once-only work failed', (error as Error).message);
        return;
      }
      if (this.#client !== client) {
        // The connection, and the lock with it, went while the work was starting.
        const stopWork = this.#stopWork;
        this.#stopWork = undefined;
        await stopWork?.();
        return;
      }
      this.#log('this instance runs the sweepers and the demo agents (it holds the run-once lock)');
    } catch (error) {
      await this.#lost("the run-once lock's connection failed", describePgError(error));
    }
  }

  async #connection(): Promise<Client> {
    if (this.#client) return this.#client;
    const client = new Client({
      connectionString: this.#url,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      application_name: RUN_ONCE_APPLICATION,
    });
    // With the connection goes the lock: stop at once rather than at the next check.
    client.on('error', (error) => {
      if (this.#client === client) void this.#lost("the run-once lock's connection was lost", error.message);
    });
    client.on('end', () => {
      if (this.#client === client) void this.#lost("the run-once lock's connection ended");
    });
    this.#client = client;
    await client.connect();
    return client;
  }

  /** The connection (and with it the lock) is gone: stop the work; the next try may take it again. */
  async #lost(why: string, reason?: string): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    client?.removeAllListeners('end');
    void client?.end().catch(() => undefined);
    const stopWork = this.#stopWork;
    this.#stopWork = undefined;
    if (this.#stopped) return;
    this.#log(why, reason === undefined ? {} : { reason });
    if (stopWork) {
      this.#log('stopped the sweepers and the demo agents here; another instance takes over');
      await stopWork().catch((error: unknown) =>
        this.#log('stopping the once-only work failed', { reason: (error as Error).message }),
      );
    }
  }

  async leaveUnlessLast(leave: () => Promise<void>): Promise<boolean> {
    let client: Client;
    try {
      client = await this.#connection();
      await client.query('SELECT pg_advisory_lock($1, $2)', [SHARE_LEAVE_LOCK.namespace, SHARE_LEAVE_LOCK.key]);
    } catch (error) {
      // Staying can only delay this instance's share until it is back; leaving alone loses it.
      this.#log("cannot tell whether other instances run; keeping this instance's share", {
        reason: describePgError(error),
      });
      return false;
    }
    try {
      const result = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`,
        [RUN_ONCE_APPLICATION],
      );
      if ((result.rows[0]?.n ?? 0) === 0) return false;
      await leave();
      // Before the lock goes: the next instance to decide must not count this one.
      await client.query(`SET application_name = '${LEAVING_APPLICATION}'`);
      return true;
    } catch (error) {
      this.#log('deciding whether to leave the share group failed', { reason: describePgError(error) });
      return false;
    } finally {
      await client
        .query('SELECT pg_advisory_unlock($1, $2)', [SHARE_LEAVE_LOCK.namespace, SHARE_LEAVE_LOCK.key])
        .catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#busy.catch(() => undefined);
    const stopWork = this.#stopWork;
    this.#stopWork = undefined;
    await stopWork?.();
    const client = this.#client;
    this.#client = undefined;
    client?.removeAllListeners('end');
    // Ending the session releases the lock: another instance's next try takes over.
    await client?.end().catch(() => undefined);
  }
}
