// How much the broker holds for a client that does not read, and for how
// long. aedes writes every message to each subscriber from one shared delivery queue (mqemitter,
// 100 messages in flight) and, when a client's socket reports it is full, holds that message
// until the socket drains or its `drainTimeout` (60 s by default) cuts the client. Measured
// (docs/security.md "Slow clients"): one frozen console or agent then stops delivery to every
// other client for the whole timeout, once per frozen client. So the broker is never told a
// client is full: each connection gets a byte budget and a drain deadline of its own, and a
// client past either is disconnected while the others keep receiving (decisions-server.md §33).
import type { Duplex } from 'node:stream';

export interface SendLimits {
  /** Bytes queued in the server for one client (above what the kernel holds) before it is cut. */
  readonly maxBufferedBytes: number;
  /** A client whose queue has not drained this long after it filled is cut. */
  readonly drainTimeoutMs: number;
}

/** The largest packet the broker sends (MAX_PACKET_BYTES in broker-listeners.ts) must fit in one client's budget. */
export const MIN_SEND_BUFFER_BYTES = 512 * 1024;

export const DEFAULT_SEND_LIMITS: SendLimits = { maxBufferedBytes: 2 * 1024 * 1024, drainTimeoutMs: 10_000 };

export type SlowClientReason = 'send_buffer_full' | 'drain_timeout';

/** Thrown into a cut connection's stream, so aedes logs and closes it as a client error. */
export class SlowClientError extends Error {
  override readonly name = 'SlowClientError';
  constructor(readonly reason: SlowClientReason) {
    super(reason);
  }
}

/**
 * Holds `connection` to `limits`. Its `write` keeps queueing (a Writable buffers whatever it is
 * given) but always reports success, so the broker moves on to the next client at once; past the
 * byte budget, or when the queue has not drained within the deadline, the connection is destroyed
 * with a SlowClientError. `onCut` learns why.
 */
export function applySendLimits(
  connection: Duplex,
  limits: SendLimits,
  onCut?: (reason: SlowClientReason) => void,
): void {
  const write = connection.write.bind(connection) as (...args: unknown[]) => boolean;
  let deadline: NodeJS.Timeout | undefined;
  const clear = () => {
    if (deadline) clearTimeout(deadline);
    deadline = undefined;
  };
  const cut = (reason: SlowClientReason) => {
    clear();
    if (connection.destroyed) return;
    onCut?.(reason);
    connection.destroy(new SlowClientError(reason));
  };
  connection.on('drain', clear);
  connection.once('close', clear);
  // The instance's own write is replaced (not a wrapper stream) so that aedes keeps the socket it
  // was handed, with its address, errors and close, and every byte is counted where it waits.
  connection.write = ((...args: unknown[]) => {
    if (connection.destroyed) return true;
    if (write(...args)) return true;
    if (connection.writableLength > limits.maxBufferedBytes) cut('send_buffer_full');
    else deadline ??= setTimeout(() => cut('drain_timeout'), limits.drainTimeoutMs).unref();
    return true;
  }) as Duplex['write'];
}

/** Bytes a connection holds for its peer in the process: its queue, and for a WebSocket the frame on its socket. */
export function queuedBytes(connection: Duplex, socket?: { writableLength: number }): number {
  return connection.writableLength + (socket?.writableLength ?? 0);
}
