// The embedded broker's live credential checks (docs/decisions-server.md §39, §72): a connection
// whose credential can be revoked is asked again, every `everyMs` for all of them and before a
// publish, and a revoked one is closed, its will dropped. A sweep also covers the connections still
// between their CONNECT and aedes' registry, and a CONNECT whose credential was read before a sweep
// was asked for is checked once more: no CONNECT outlives a revocation it raced.
import type { Client } from 'aedes';
import type { StillValid } from './revalidate';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('mqtt');

interface LiveCheck {
  readonly stillValid: StillValid;
  /** An operator's publish is checked every time; an agent's relies on a check this recent. */
  readonly everyPublish: boolean;
  checkedAt: number;
}

/** Refuses the pending publish (if any) and closes the connection, with a line in the log. */
export function revokeClient(client: Client, callback?: (error: Error) => void): void {
  callback?.(new Error('not_authorized'));
  log.info(
    { clientId: client.id ?? '', code: 'REVOKED' },
    'disconnected an MQTT client: its credential or session was revoked',
  );
  client.close();
}

/** Runs before a revoked client is closed: what it should still read (its grants' revokes). */
export type BeforeRevoke = (client: Client) => Promise<void>;

export class CredentialChecks {
  /** Per connected client whose credential can be revoked: how to check it again. */
  readonly #liveChecks = new WeakMap<Client, LiveCheck>();
  /** Clients found revoked: nothing more of theirs is published, their will included. */
  readonly #revoked = new WeakSet<Client>();
  /** Tracked clients not yet in aedes' registry (their CONNECT is still being answered). */
  readonly #connecting = new Set<Client>();
  readonly #now: () => number;
  readonly #everyMs: number;
  readonly #clients: () => readonly (Client | undefined)[];
  readonly #registered: (client: Client) => boolean;
  readonly #beforeRevoke: BeforeRevoke | undefined;
  /** Counts the sweeps asked for: a CONNECT that read its credential before one checks again. */
  #asked = 0;
  #revalidating: Promise<number> | undefined;
  /** A sweep asked for while one runs: it may have read the store before the change it is for. */
  #again: Promise<number> | undefined;

  constructor(
    now: () => number,
    everyMs: number,
    clients: () => readonly (Client | undefined)[],
    registered: (client: Client) => boolean,
    beforeRevoke?: BeforeRevoke,
  ) {
    this.#now = now;
    this.#everyMs = everyMs;
    this.#clients = clients;
    this.#registered = registered;
    this.#beforeRevoke = beforeRevoke;
  }

  get everyMs(): number {
    return this.#everyMs;
  }

  /** How many sweeps were asked for so far (compare before and after reading a credential). */
  get asked(): number {
    return this.#asked;
  }

  /**
   * Checks the client's credential again from now on; `everyPublish` for an operator's console.
   * `readAt`: when the credential was read, which is when it was last known to hold.
   */
  track(client: Client, stillValid: StillValid, everyPublish: boolean, readAt: number): void {
    this.#liveChecks.set(client, { stillValid, everyPublish, checkedAt: readAt });
    this.#connecting.add(client);
  }

  /** Whether the client was closed for a revoked credential. */
  revoked(client: Client): boolean {
    return this.#revoked.has(client);
  }

  /**
   * Undefined when the client's last check still stands for this publish, else the check.
   * `always`: check whatever the last one (a will, published as the connection ends).
   */
  beforePublish(client: Client, always = false): Promise<boolean> | undefined {
    const live = this.#liveChecks.get(client);
    if (!live) return undefined;
    const now = this.#now();
    if (!always && !live.everyPublish && now - live.checkedAt < this.#everyMs) return undefined;
    return live.stillValid().then((valid) => {
      if (valid) live.checkedAt = now;
      return valid;
    });
  }

  /** Closes a revoked client, after what it should still read; a pending publish is refused. */
  async revoke(client: Client, callback?: (error: Error) => void): Promise<void> {
    if (this.#revoked.has(client)) return revokeClient(client, callback);
    this.#revoked.add(client);
    await this.#beforeRevoke?.(client).catch((error: unknown) =>
      log.error({ clientId: client.id ?? '', err: error }, 'could not finish what a revoked client should read'),
    );
    revokeClient(client, callback);
  }

  /**
   * Checks every open connection once (one sweep at a time); resolves to how many it closed. A
   * call while a sweep runs gets one more sweep after it (shared by every such call), so what
   * changed before the call is always seen.
   */
  revalidate(): Promise<number> {
    this.#asked += 1;
    if (!this.#revalidating) {
      this.#revalidating = this.#revalidateAll().finally(() => (this.#revalidating = undefined));
      return this.#revalidating;
    }
    this.#again ??= this.#revalidating.then(() => {
      this.#again = undefined;
      return this.revalidate();
    });
    return this.#again;
  }

  async #revalidateAll(): Promise<number> {
    for (const client of this.#connecting)
      if (client.closed || this.#registered(client)) this.#connecting.delete(client);
    const clients = new Set([...this.#clients(), ...this.#connecting]);
    const verdicts = await Promise.all(
      [...clients].map(async (client) => {
        const live = client && this.#liveChecks.get(client);
        if (!live) return false;
        const now = this.#now();
        // A store that cannot answer revokes nothing; the publish path refuses meanwhile.
        const valid = await live.stillValid().catch(() => true);
        if (valid) live.checkedAt = now;
        else if (!client.closed) await this.revoke(client);
        return !valid;
      }),
    );
    return verdicts.filter(Boolean).length;
  }
}
