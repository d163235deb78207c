// No `since` a client sends can stop the server (decisions-agora.md §36): a real server process
// over a real socket, so a poll loop that never yields would starve its /health too. Random
// sequences of cursors (small, near the head, far beyond it) and timestamps (past, future) are
// polled, some of them long; /health must answer within a second throughout, and every poll must
// answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killed, startServerProcess, type ServerProcess } from '../test-support/server-process';

const SEED = 38_001;
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-poll-liveness-'));
let server: ServerProcess | undefined;

beforeAll(async () => {
  server = await startServerProcess({ DATA_DIR: dataDir });
});
afterAll(async () => {
  if (server) await killed(server.child);
  rmSync(dataDir, { recursive: true, force: true });
});

const cursor = fc
  .oneof(
    fc.integer({ min: 0, max: 5 }),
    fc.integer({ min: 6, max: 1_000_000 }),
    fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  )
  .map((seq) => `cur_${seq}`);
const timestamp = fc
  .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 0, 1) })
  .map((ms) => new Date(ms).toISOString());
const poll = fc.record({
  since: fc.oneof(cursor, timestamp),
  // Mostly answers at once; sometimes a real one-second long-poll held while /health is asked.
  timeout: fc.constantFrom(0, 0, 0, 1),
  filter: fc.constantFrom('', '&type=RESULT', '&recipient=did%3Akey%3Az6MkNobody'),
});

async function healthWithin(ms: number): Promise<void> {
  const res = await fetch(`${server!.url}/health`, { signal: AbortSignal.timeout(ms) });
  expect(res.status).toBe(200);
}

describe('GET /events liveness', () => {
  it('answers every poll and keeps /health under a second, whatever cursors and timestamps come in', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(poll, { minLength: 1, maxLength: 5 }), async (polls) => {
        for (const p of polls) {
          const answer = fetch(
            `${server!.url}/events?since=${encodeURIComponent(p.since)}&timeout=${p.timeout}${p.filter}`,
            { signal: AbortSignal.timeout(5_000) },
          ).then(
            async (res) => [res.status, await res.text()] as const,
            (error: unknown) => [0, String(error)] as const,
          );
          await healthWithin(1_000);
          const [status] = await answer;
          expect([200, 400]).toContain(status);
        }
        await healthWithin(1_000);
      }),
      { seed: SEED, numRuns: 30, endOnFailure: true },
    );
  });
});
