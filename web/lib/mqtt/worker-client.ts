// The page's side of the MQTT worker (mqtt-worker.ts): the few calls room-connection.ts and
// publish.ts make, with the connection's flags mirrored from the worker's last event.
import type { ConnectionFlags, ConnectOptions, WorkerEvent, WorkerRequest } from './worker-protocol';

type Listener<A extends unknown[]> = (...args: A) => void;

interface Listeners {
  connect: Listener<[]>[];
  close: Listener<[]>[];
  error: Listener<[Error]>[];
  message: Listener<[string, Uint8Array]>[];
}

export class WorkerMqttClient {
  #flags: ConnectionFlags = { connected: false, reconnecting: false, disconnected: true };
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  readonly #listeners: Listeners = { connect: [], close: [], error: [], message: [] };
  readonly #worker: Worker;

  constructor(options: ConnectOptions) {
    this.#worker = new Worker(new URL('./mqtt-worker.ts', import.meta.url), { type: 'module', name: 'mqtt' });
    this.#worker.onmessage = (event: MessageEvent<WorkerEvent>) => this.#receive(event.data);
    // The worker's script failed to load or threw: the page hears it as a dropped connection.
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.#fail(new Error('The live connection code did not load; reload the page to follow the room live.'));
    };
    this.#send({ op: 'connect', options });
  }

  get connected(): boolean {
    return this.#flags.connected;
  }

  get reconnecting(): boolean {
    return this.#flags.reconnecting;
  }

  get disconnected(): boolean {
    return this.#flags.disconnected;
  }

  on<E extends keyof Listeners>(event: E, listener: Listeners[E][number]): this {
    (this.#listeners[event] as Listeners[E][number][]).push(listener);
    return this;
  }

  reconnect(): void {
    this.#send({ op: 'reconnect' });
  }

  end(): void {
    this.#send({ op: 'end' });
    this.#worker.terminate();
    for (const { reject } of this.#pending.values()) reject(new Error('The connection was closed.'));
    this.#pending.clear();
  }

  subscribeAsync(filters: readonly string[]): Promise<void> {
    return this.#request((id) => ({ op: 'subscribe', id, filters }));
  }

  unsubscribe(filters: readonly string[]): void {
    this.#send({ op: 'unsubscribe', filters });
  }

  publishAsync(topic: string, payload: string): Promise<void> {
    return this.#request((id) => ({ op: 'publish', id, topic, payload }));
  }

  #request(make: (id: number) => WorkerRequest): Promise<void> {
    const id = this.#nextId++;
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send(make(id));
    });
  }

  #send(request: WorkerRequest): void {
    this.#worker.postMessage(request);
  }

  #fail(error: Error): void {
    this.#flags = { connected: false, reconnecting: false, disconnected: true };
    for (const listener of this.#listeners.error) listener(error);
    for (const listener of this.#listeners.close) listener();
  }

  #receive(event: WorkerEvent): void {
    switch (event.ev) {
      case 'message':
        for (const listener of this.#listeners.message) listener(event.topic, event.payload);
        return;
      case 'done': {
        const pending = this.#pending.get(event.id);
        this.#pending.delete(event.id);
        if (event.error === undefined) pending?.resolve();
        else pending?.reject(new Error(event.error));
        return;
      }
      case 'connect':
        this.#flags = event.flags;
        for (const listener of this.#listeners.connect) listener();
        return;
      case 'close':
        this.#flags = event.flags;
        for (const listener of this.#listeners.close) listener();
        return;
      case 'error':
        this.#flags = event.flags;
        for (const listener of this.#listeners.error) listener(new Error(event.message));
        return;
      default: {
        const never: never = event;
        return never;
      }
    }
  }
}
