// Messages between the console and the worker that runs mqtt.js (mqtt-worker.ts). Only plain,
// structured-cloneable data crosses: topics and payload bytes in, requests and their outcomes out.

export interface ConnectOptions {
  readonly url: string;
  /** Empty: the broker assigns one. */
  readonly clientId: string;
}

export type WorkerRequest =
  | { readonly op: 'connect'; readonly options: ConnectOptions }
  | { readonly op: 'reconnect' }
  | { readonly op: 'end' }
  | { readonly op: 'subscribe'; readonly id: number; readonly filters: readonly string[] }
  | { readonly op: 'unsubscribe'; readonly filters: readonly string[] }
  | { readonly op: 'publish'; readonly id: number; readonly topic: string; readonly payload: string };

/** The connection's flags, sent with every event so the page's copy is never stale. */
export interface ConnectionFlags {
  readonly connected: boolean;
  readonly reconnecting: boolean;
  readonly disconnected: boolean;
}

export type WorkerEvent =
  | { readonly ev: 'connect'; readonly flags: ConnectionFlags }
  | { readonly ev: 'close'; readonly flags: ConnectionFlags }
  | { readonly ev: 'error'; readonly flags: ConnectionFlags; readonly message: string }
  | { readonly ev: 'message'; readonly topic: string; readonly payload: Uint8Array }
  | { readonly ev: 'done'; readonly id: number; readonly error?: string };
