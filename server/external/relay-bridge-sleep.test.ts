// The poller's back-off wait: the signal it is given lives as long as the poller, so each wait
// must take its abort listener off again, or a service that stays down grows one per retry.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sleep } from './relay-bridge';

describe('the relay bridge back-off wait', () => {
  it('leaves no abort listener behind on its signal, however many times it waits', async () => {
    const poller = new AbortController();
    for (let i = 0; i < 25; i++) await sleep(1, poller.signal);
    expect(getEventListeners(poller.signal, 'abort')).toHaveLength(0);
  });

  it('ends at once when the poller stops', async () => {
    const poller = new AbortController();
    const waiting = sleep(60_000, poller.signal);
    poller.abort();
    await expect(waiting).resolves.toBeUndefined();
    expect(getEventListeners(poller.signal, 'abort')).toHaveLength(0);
  });
});
