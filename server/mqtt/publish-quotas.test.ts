// The quota buckets alone, on a hand-moved clock (decisions-server.md §45).
import { describe, expect, it } from 'vitest';
import { manualClock } from '../test-support/manual-clock';
import { parseByteRate, PublishQuotas } from './publish-quotas';

const quiet = () => undefined;

describe('PublishQuotas', () => {
  it('takes a publish from both buckets or from neither: a refusal by the byte bucket spends no message', () => {
    const clock = manualClock();
    const quotas = new PublishQuotas(
      { messages: { capacity: 3, refillPerSecond: 1 }, bytes: { capacity: 100, refillPerSecond: 10 } },
      clock,
      quiet,
    );
    expect(quotas.take('a', 60)).toEqual({ ok: true });
    expect(quotas.take('a', 60)).toEqual({ ok: false, reason: 'byte_quota_exceeded', retryAfterSeconds: 2 });
    expect(quotas.take('a', 40)).toEqual({ ok: true });
    expect(quotas.take('a', 0)).toEqual({ ok: true }); // the refused one left its message token
    expect(quotas.take('a', 0)).toMatchObject({ ok: false, reason: 'message_rate_too_high' });
    clock.advance(1_000);
    expect(quotas.take('a', 10)).toEqual({ ok: true });
  });

  it('reports an agent going over once per episode: publishing at its rate stays one episode, which ends once its buckets are full again', () => {
    const clock = manualClock();
    const over: string[] = [];
    const quotas = new PublishQuotas(
      { messages: { capacity: 10, refillPerSecond: 1 }, bytes: undefined },
      clock,
      (agentId, reason) => over.push(`${agentId} ${reason}`),
    );
    for (let i = 0; i < 11; i++) quotas.take('a', 1);
    expect(over).toEqual(['a message_rate_too_high']);
    // Riding its quota: one accepted and one refused every second, for a minute.
    for (let second = 0; second < 60; second++) {
      clock.advance(1_000);
      expect(quotas.take('a', 1).ok).toBe(true);
      expect(quotas.take('a', 1).ok).toBe(false);
    }
    expect(over).toHaveLength(1);
    // Quiet long enough for a full bucket: the episode is over, and the next one is reported.
    clock.advance(10_000);
    for (let i = 0; i < 11; i++) quotas.take('a', 1);
    expect(over).toEqual(['a message_rate_too_high', 'a message_rate_too_high']);
  });

  it('reads byte rates with units', () => {
    expect(parseByteRate('16MiB/min')).toEqual({
      capacity: 16 * 1024 * 1024,
      refillPerSecond: (16 * 1024 * 1024) / 60,
    });
    expect(parseByteRate('512KiB/s')).toEqual({ capacity: 512 * 1024, refillPerSecond: 512 * 1024 });
    expect(parseByteRate('65536/h')).toEqual({ capacity: 65536, refillPerSecond: 65536 / 3600 });
    for (const bad of ['16MB/min', '0/s', '1.5MiB/s', 'MiB/s', '16 MiB / min x'])
      expect(parseByteRate(bad)).toBeUndefined();
  });
});
