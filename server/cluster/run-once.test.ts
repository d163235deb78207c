// The run-once lock on the real PostgreSQL: of several instances exactly one
// runs the once-only work; when it stops, or its connection is killed, another takes over.
import { Client } from 'pg';
import { describe, expect, it } from 'vitest';
import { usePgDatabase } from '../test-support/pg-database';
import { startRunOnce, type RunOnce } from './run-once';

const pg = usePgDatabase();

/** An instance's election whose work only counts how often it started and is running. */
async function instance(url: string, name: string, log: string[]) {
  const state = { starts: 0, running: false };
  const election = await startRunOnce({
    databaseUrl: url,
    retryMs: 50,
    log: () => undefined,
    start: async () => {
      state.starts++;
      state.running = true;
      log.push(`${name} started`);
      return async () => {
        state.running = false;
        log.push(`${name} stopped`);
      };
    },
  });
  return { election, state };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('run once per cluster (PostgreSQL advisory lock)', () => {
  it('without a database the work runs at once, and stops once', async () => {
    let running = 0;
    const alone: RunOnce = await startRunOnce({
      databaseUrl: undefined,
      start: async () => (running++, async () => void running--),
    });
    expect([alone.leading, running]).toEqual([true, 1]);
    await alone.stop();
    await alone.stop();
    expect([alone.leading, running]).toEqual([false, 0]);
  });

  it('runs the work on exactly one of three instances; stopping the holder hands it to one other', async () => {
    const url = await pg.url();
    const log: string[] = [];
    const [first, second, third] = [
      await instance(url, 'a', log),
      await instance(url, 'b', log),
      await instance(url, 'c', log),
    ];
    const all = [first, second, third];
    // The first to try holds it from its first attempt; the others keep trying.
    expect(all.map((i) => i.election.leading)).toEqual([true, false, false]);
    expect(log).toEqual(['a started']);
    await first.election.stop();
    await until(() => second.state.running || third.state.running);
    const running = all.filter((i) => i.state.running);
    expect(running).toHaveLength(1);
    expect(all.filter((i) => i.election.leading)).toHaveLength(1);
    await Promise.all(all.map((i) => i.election.stop()));
    expect(all.some((i) => i.state.running)).toBe(false);
  });

  it("stops the work when the holder's connection is killed, and one instance runs it again", async () => {
    const url = await pg.url();
    const log: string[] = [];
    const first = await instance(url, 'first', log);
    const second = await instance(url, 'second', log);
    expect([first.election.leading, second.election.leading]).toEqual([true, false]);
    // The holder's session dies as in a crash or a network cut: PostgreSQL releases the lock.
    const admin = new Client({ connectionString: url });
    await admin.connect();
    const killed = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    await admin.end();
    expect(killed.rowCount).toBe(1);
    await until(() => log.length >= 3);
    // The killed holder stopped before anyone started again (whichever instance wins the retry).
    expect(log.slice(0, 2)).toEqual(['first started', 'first stopped']);
    expect(log[2]).toMatch(/^(first|second) started$/);
    expect([first.state.running, second.state.running].filter(Boolean)).toHaveLength(1);
    expect([first.election.leading, second.election.leading].filter(Boolean)).toHaveLength(1);
    await Promise.all([first.election.stop(), second.election.stop()]);
    expect(first.state.running || second.state.running).toBe(false);
  });

  it('of instances stopping together, all but the last leave the share group; alone, one stays', async () => {
    let calls = 0;
    const single = await startRunOnce({ databaseUrl: undefined, start: async () => async () => undefined });
    expect(await single.leaveUnlessLast(async () => void calls++)).toBe(false);
    const url = await pg.url();
    const all = [await instance(url, 'a', []), await instance(url, 'b', []), await instance(url, 'c', [])];
    const left: string[] = [];
    // Each leave takes a while, as an UNSUBSCRIBE round trip does: without the one-at-a-time lock
    // all three would count the others and leave.
    const leaving = (name: string) => async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      left.push(name);
    };
    const answers = await Promise.all(all.map((i, n) => i.election.leaveUnlessLast(leaving('abc'[n]!))));
    expect(answers.filter(Boolean)).toHaveLength(2);
    expect(left).toHaveLength(2);
    await Promise.all(all.map((i) => i.election.stop()));
    const lone = await instance(url, 'd', []);
    expect(await lone.election.leaveUnlessLast(async () => void calls++)).toBe(false);
    expect(calls).toBe(0);
    await lone.election.stop();
  });
});
