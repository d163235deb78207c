// The embedded broker's live credential checks (docs/decisions-server.md §39): a connection whose
// credential can be revoked is asked again, every `everyMs` for all of them and before a publish,
// and a revoked one is closed.
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

export class CredentialChecks {
  /** Per connected client whose credential can be revoked: how to check it again. */
  readonly #liveChecks = new WeakMap<Client, LiveCheck>();
  readonly #now: () => number;
  readonly #everyMs: number;
  readonly #clients: () => readonly (Client | undefined)[];
  #revalidating: Promise<number> | undefined;
  /** A sweep asked for while one runs: it may have read the store before the change it is for. */
  #again: Promise<number> | undefined;

  constructor(now: () => number, everyMs: number, clients: () => readonly (Client | undefined)[]) {
    this.#now = now;
    this.#everyMs = everyMs;
    this.#clients = clients;
  }

  get everyMs(): number {
    return this.#everyMs;
  }

  /** Checks the client's credential again from now on; `everyPublish` for an operator's console. */
  track(client: Client, stillValid: StillValid, everyPublish: boolean): void {
    this.#liveChecks.set(client, { stillValid, everyPublish, checkedAt: this.#now() });
  }

  /** Undefined when the client's last check still stands for this publish, else the check. */
  beforePublish(client: Client): Promise<boolean> | undefined {
    const live = this.#liveChecks.get(client);
    if (!live) return undefined;
    const now = this.#now();
    if (!live.everyPublish && now - live.checkedAt < this.#everyMs) return undefined;
    return live.stillValid().then((valid) => {
      if (valid) live.checkedAt = now;
      return valid;
    });
  }

  /**
   * Checks every open connection once (one sweep at a time); resolves to how many it closed. A
   * call while a sweep runs gets one more sweep after it (shared by every such call), so what
   * changed before the call is always seen.
   */
  revalidate(): Promise<number> {
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
    const verdicts = await Promise.all(
      this.#clients().map(async (client) => {
        const live = client && this.#liveChecks.get(client);
        if (!live) return false;
        const now = this.#now();
        // A store that cannot answer revokes nothing; the publish path refuses meanwhile.
        const valid = await live.stillValid().catch(() => true);
        if (valid) live.checkedAt = now;
        else if (!client.closed) revokeClient(client);
        return !valid;
      }),
    );
    return verdicts.filter(Boolean).length;
  }
}
