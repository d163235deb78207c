// LISTEN side of the relay's head notifications (issue 8 item 3): every append transaction that
// stores an envelope NOTIFYs its seq on one channel, delivered at COMMIT in commit order, so a
// long-poll on any instance wakes for an event stored through any other. One dedicated
// connection per store, opened on the first subscriber; after a lost connection it reconnects
// and reports the store's head, which covers whatever was notified while it was away.
import { Client } from 'pg';
import { describePgError, pgTypes } from './pg-pool';

export const RELAY_HEAD_CHANNEL = 'switchboard_relay_head';
const RECONNECT_MS = 1_000;

/** The NOTIFY payload: who stored it (the store instance) and the highest seq it committed. */
export const headPayload = (instance: string, seq: number): string => `${instance} ${seq}`;

export class PgHeadListener {
  readonly #url: string;
  readonly #instance: string;
  readonly #readHead: () => Promise<number>;
  readonly #listeners = new Set<(headSeq: number) => void>();
  #client: Client | undefined;
  #retry: NodeJS.Timeout | undefined;

  /** `instance`: notifications from this store itself are skipped (its own feed published them). */
  constructor(url: string, instance: string, readHead: () => Promise<number>) {
    this.#url = url;
    this.#instance = instance;
    this.#readHead = readHead;
  }

  subscribe(listener: (headSeq: number) => void): () => void {
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

  #emit(headSeq: number): void {
    for (const listener of [...this.#listeners]) listener(headSeq);
  }

  #connect(): void {
    const client = new Client({
      connectionString: this.#url,
      types: pgTypes(),
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      application_name: 'switchboard-listen',
    });
    this.#client = client;
    client.on('notification', (message) => {
      if (message.channel !== RELAY_HEAD_CHANNEL || !message.payload) return;
      const [from, seqText] = message.payload.split(' ');
      const seq = Number(seqText);
      if (from === this.#instance || !Number.isSafeInteger(seq)) return;
      this.#emit(seq);
    });
    const retry = (error?: unknown) => {
      if (this.#client !== client) return; // closed, or already replaced
      this.#client = undefined;
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (error !== undefined) console.error(`postgres: relay head listener: ${describePgError(error)}; reconnecting`);
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
      .then(() => client.query(`LISTEN ${RELAY_HEAD_CHANNEL}`))
      .then(() => this.#readHead())
      .then((head) => {
        if (this.#client === client) this.#emit(head);
      })
      .catch(retry);
  }
}
