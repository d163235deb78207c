// One PostgreSQL LISTEN channel on a dedicated connection, opened on the first subscriber and
// closed with the last. NOTIFY is delivered at COMMIT, so what a listener hears is committed.
// After a lost connection it reconnects and asks `caughtUp` what to report, which covers
// whatever was notified while no connection listened (pg-head-listener.ts, pg-access-listener.ts).
import { Client } from 'pg';
import { describePgError, pgTypes } from './pg-pool';
import { moduleLogger } from '../../logging/logger';

const log = moduleLogger('store');

const RECONNECT_MS = 1_000;

export interface ChannelSpec<T> {
  readonly channel: string;
  /** For the log line and the connection's application_name. */
  readonly name: string;
  /** A notification's value for the subscribers, or undefined to skip it (this store's own, malformed). */
  parse(payload: string): T | undefined;
  /** Once LISTEN holds: what to report, if anything; `first` is true on the first connection. */
  caughtUp(first: boolean): Promise<T | undefined>;
}

export class PgChannelListener<T> {
  readonly #url: string;
  readonly #spec: ChannelSpec<T>;
  readonly #listeners = new Set<(value: T) => void>();
  #client: Client | undefined;
  #retry: NodeJS.Timeout | undefined;
  #listened = false;

  constructor(url: string, spec: ChannelSpec<T>) {
    this.#url = url;
    this.#spec = spec;
  }

  subscribe(listener: (value: T) => void): () => void {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1) this.#connect();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.close();
    };
  }

  close(): void {
    this.#listeners.clear();
    clearTimeout(this.#retry);
    this.#retry = undefined;
    const client = this.#client;
    this.#client = undefined;
    client?.removeAllListeners();
    client?.on('error', () => undefined);
    void client?.end().catch(() => undefined);
  }

  #emit(value: T | undefined): void {
    if (value === undefined) return;
    for (const listener of [...this.#listeners]) listener(value);
  }

  #connect(): void {
    const { channel, name } = this.#spec;
    const client = new Client({
      connectionString: this.#url,
      types: pgTypes(),
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      application_name: `switchboard-listen-${name}`,
    });
    this.#client = client;
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) this.#emit(this.#spec.parse(message.payload));
    });
    const retry = (error?: unknown) => {
      if (this.#client !== client) return; // closed, or already replaced
      this.#client = undefined;
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (error !== undefined)
        log.warn({ listener: name, reason: describePgError(error) }, 'PostgreSQL listener lost; reconnecting');
      this.#retry = setTimeout(() => {
        this.#retry = undefined;
        if (this.#listeners.size > 0) this.#connect();
      }, RECONNECT_MS);
      this.#retry.unref();
    };
    client.on('error', retry);
    client.on('end', () => retry(new Error('connection ended')));
    client
      .connect()
      .then(() => client.query(`LISTEN ${channel}`))
      .then(() => {
        const first = !this.#listened;
        this.#listened = true;
        return this.#spec.caughtUp(first);
      })
      .then((value) => {
        if (this.#client === client) this.#emit(value);
      })
      .catch(retry);
  }
}
