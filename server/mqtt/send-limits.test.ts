// applySendLimits on an in-memory peer that reads only when told to (no sockets, fake timers).
import { Duplex } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applySendLimits, SlowClientError, type SlowClientReason } from './send-limits';

/** A connection whose peer takes each chunk only when `read()` is called. */
function peer() {
  const pending: (() => void)[] = [];
  const connection = new Duplex({
    read() {},
    write(_chunk, _encoding, callback) {
      pending.push(callback);
    },
  });
  connection.on('error', () => undefined);
  return {
    connection,
    readAll: () => {
      while (pending.length) pending.shift()!();
    },
  };
}

const KiB = 1024;
const chunk = Buffer.alloc(8 * KiB);

afterEach(() => vi.useRealTimers());

describe('applySendLimits', () => {
  it('reports every write as sent while under the budget, so the broker never waits for this client', () => {
    const { connection } = peer();
    applySendLimits(connection, { maxBufferedBytes: 64 * KiB, drainTimeoutMs: 1000 });
    for (let i = 0; i < 8; i++) expect(connection.write(chunk)).toBe(true);
    expect(connection.writableLength).toBe(64 * KiB);
    expect(connection.destroyed).toBe(false);
  });

  it('cuts the client on the write that passes the budget, once, with a coded error', () => {
    const { connection } = peer();
    const cuts: SlowClientReason[] = [];
    let error: unknown;
    connection.on('error', (e) => (error = e));
    applySendLimits(connection, { maxBufferedBytes: 64 * KiB, drainTimeoutMs: 1000 }, (reason) => cuts.push(reason));
    for (let i = 0; i < 8; i++) connection.write(chunk);
    expect(connection.destroyed).toBe(false);
    expect(connection.write(chunk)).toBe(true);
    expect(connection.destroyed).toBe(true);
    expect(connection.write(chunk)).toBe(true);
    expect(cuts).toEqual(['send_buffer_full']);
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(error).toBeInstanceOf(SlowClientError);
        expect((error as SlowClientError).reason).toBe('send_buffer_full');
        resolve();
      }),
    );
  });

  it('cuts a client whose queue stays past the high-water mark until the drain deadline', () => {
    vi.useFakeTimers();
    const { connection } = peer();
    const cuts: SlowClientReason[] = [];
    applySendLimits(connection, { maxBufferedBytes: 1024 * KiB, drainTimeoutMs: 1000 }, (reason) => cuts.push(reason));
    for (let i = 0; i < 4; i++) connection.write(chunk); // 32 KiB: past the 16 KiB mark
    vi.advanceTimersByTime(999);
    expect(connection.destroyed).toBe(false);
    connection.write(chunk); // more writes do not move the deadline
    vi.advanceTimersByTime(1);
    expect(connection.destroyed).toBe(true);
    expect(cuts).toEqual(['drain_timeout']);
  });

  it('keeps a client that drains before its deadline, and starts a new deadline when it fills again', async () => {
    vi.useFakeTimers();
    const { connection, readAll } = peer();
    const cuts: SlowClientReason[] = [];
    applySendLimits(connection, { maxBufferedBytes: 1024 * KiB, drainTimeoutMs: 1000 }, (reason) => cuts.push(reason));
    for (let i = 0; i < 4; i++) connection.write(chunk);
    vi.advanceTimersByTime(900);
    readAll();
    await vi.advanceTimersByTimeAsync(0); // 'drain' is emitted on the next tick
    expect(connection.writableLength).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(connection.destroyed).toBe(false);
    for (let i = 0; i < 4; i++) connection.write(chunk);
    vi.advanceTimersByTime(1000);
    expect(connection.destroyed).toBe(true);
    expect(cuts).toEqual(['drain_timeout']);
  });
});
