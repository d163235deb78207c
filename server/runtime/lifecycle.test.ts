// The one start order and its reverse that every instance runs (start-switchboard.ts).
import { expect, it } from 'vitest';
import { Lifecycle } from './lifecycle';

it('stops the parts in the reverse of their start, each after the later one has finished stopping', async () => {
  const life = new Lifecycle();
  const log: string[] = [];
  const store = await life.open(
    () => 'store',
    (part) => void log.push(`stop ${part}`),
  );
  await life.open(
    async () => 'broker',
    async (part) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`stop ${part}`);
    },
  );
  life.started(() => void log.push('stop presence'));
  expect(store).toBe('store');
  await life.close();
  expect(log).toEqual(['stop presence', 'stop broker', 'stop store']);
  await life.close();
  expect(log).toHaveLength(3);
});

it('unwinds a failed start: what had started stops in reverse, a failing stop does not hide the others', async () => {
  const life = new Lifecycle();
  const log: string[] = [];
  await life.open(
    () => 'store',
    () => void log.push('stop store'),
  );
  await life.open(
    () => 'http',
    () => {
      log.push('stop http');
      throw new Error('already closed');
    },
  );
  await expect(
    life.open(
      () => Promise.reject(new Error('port taken')),
      () => void log.push('never started'),
    ),
  ).rejects.toThrow('port taken');
  await life.unwind();
  expect(log).toEqual(['stop http', 'stop store']);
});
