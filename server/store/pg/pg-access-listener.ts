// LISTEN side of the access notifications (decisions-server.md §39): the statements that may
// revoke a credential (an agent's removed or rotated, an operator's role changed, a session ended)
// NOTIFY on one channel in their own transaction, delivered at COMMIT, so a server instance closes
// the MQTT connections they revoke at once, whichever process (the CLI, another instance) wrote.
// One dedicated connection per store, opened on the first subscriber; after a lost connection it
// reconnects and reports a change, which covers whatever was notified while it was away.
import { Client } from 'pg';
import { describePgError, pgTypes } from './pg-pool';

export const ACCESS_CHANGED_CHANNEL = 'switchboard_access';
const RECONNECT_MS = 1_000;

export class PgAccessListener {
  readonly #url: string;
  readonly #instance: string;
  readonly #listeners = new Set<() => void>();
  #client: Client | undefined;
  #retry: NodeJS.Timeout | undefined;
  /** Whether LISTEN has held before: listening again after a loss reports one change. */
  #listened = false;

  /** `instance`: the payload of this store's own notifications, skipped (its process already knows). */
  constructor(url: string, instance: string) {
    this.#url = url;
    this.#instance = instance;
  }

  subscribe(listener: () => void): () => void {
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

  #emit(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  #connect(): void {
    const client = new Client({ connectionString: this.#url, types: pgTypes(), connectionTimeoutMillis: 5_000, keepAlive: true, application_name: 'switchboard-listen-access' });
    this.#client = client;
    client.on('notification', (message) => {
      if (message.channel === ACCESS_CHANGED_CHANNEL && message.payload !== this.#instance) this.#emit();
    });
    const retry = (error?: unknown) => {
      if (this.#client !== client) return; // closed, or already replaced
      this.#client = undefined;
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (error !== undefined) console.error(`postgres: access listener: ${describePgError(error)}; reconnecting`);
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
      .then(() => client.query(`LISTEN ${ACCESS_CHANGED_CHANNEL}`))
      .then(() => {
        if (this.#client !== client) return;
        // Whatever was notified while no connection listened is reported as one change.
        if (this.#listened) this.#emit();
        this.#listened = true;
      })
      .catch(retry);
  }
}
