// Disk faults: a full disk and a read-only DATA_DIR give a clear coded error, never silent
// loss. Real filesystems: a small tmpfs mounted for the test (root only; without root the suite
// says so and is skipped), a real server process, real MQTT and HTTP clients.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { connectClient } from '../test-support/mqtt-clients';
import { killed, startServerProcess, type ServerProcess } from '../test-support/server-process';
import { sessionCookie } from '../test-support/sessions';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const mounts: string[] = [];
let server: ServerProcess | undefined;

function mountTmpfs(options: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
    mounts.push(dir);
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}
const canMount = (() => {
  const dir = mountTmpfs('size=64k');
  if (!dir) return false;
  execFileSync('umount', [dir]);
  mounts.pop();
  rmSync(dir, { recursive: true, force: true });
  return true;
})();

afterEach(async () => {
  if (server) await killed(server.child);
  server = undefined;
  for (const dir of mounts.splice(0)) {
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Fills the filesystem under `dir` until the kernel refuses one more byte. */
function fill(dir: string): void {
  const { bavail, bsize } = statfsSync(dir);
  try {
    writeFileSync(join(dir, 'filler'), Buffer.alloc(Number(bavail * bsize)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(dir, `filler-${i}`), Buffer.alloc(512));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw error;
    }
  }
}

function startFails(env: Record<string, string>): Promise<string> {
  return startServerProcess(env).then(
    async (s) => {
      await killed(s.child);
      return 'started';
    },
    (error: Error) => error.message,
  );
}

describe.skipIf(!canMount)('a read-only DATA_DIR', () => {
  it('stops the server at start with one line naming DATA_DIR, when the directory is empty', async () => {
    const dir = mountTmpfs('ro,size=1m')!;
    const message = await startFails({ DATA_DIR: dir });
    const lines = message.split('\n').filter((l) => l.startsWith('switchboard:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/DATA_DIR/);
  });

  it('stops the server at start with one line naming DATA_DIR, when it holds a database made read-only afterwards', async () => {
    const dir = mountTmpfs('size=4m')!;
    const store = new SqliteStore({ file: join(dir, 'switchboard.sqlite') });
    await store.rooms.ensureRoom({ id: 'r1', name: 'Room', moderation: 'auto' });
    await store.close();
    execFileSync('mount', ['-o', 'remount,ro', dir]);
    const message = await startFails({ DATA_DIR: dir });
    const lines = message.split('\n').filter((l) => l.startsWith('switchboard:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/DATA_DIR/);
  });
});

describe.skipIf(!canMount)('a full disk under DATA_DIR', () => {
  it('refuses writes with a coded 503 on HTTP and a refused PUBACK on MQTT, loses nothing it accepted, and recovers once space is freed', async () => {
    const dir = mountTmpfs('size=3m')!;
    const file = join(dir, 'switchboard.sqlite');
    server = await startServerProcess({ DATA_DIR: dir });
    const setup = new SqliteStore({ file });
    await setup.rooms.ensureRoom({ id: 'r1', name: 'Room', moderation: 'auto' });
    await setup.access.putAgentCredential({
      agentId: 'agent.writer',
      passwordHash: await hashPassword('pw'),
      createdAt: Date.now(),
    });
    const cookie = await sessionCookie(setup, FACILITATOR, 'facilitator');
    await setup.close();

    const createRoom = (id: string) =>
      fetch(`${server!.url}/api/rooms`, {
        method: 'POST',
        headers: { cookie, origin: server!.url, 'content-type': 'application/json' },
        body: JSON.stringify({ id, name: `Room ${id} ${'x'.repeat(150)}`, moderation: 'auto' }),
      });
    const agent = await connectClient(server.mqttUrl, { username: 'agent.writer', password: 'pw' });
    agent.client.on('error', () => undefined);
    fill(dir);

    // Keep writing until the database hits the wall: SQLite's WAL may absorb the first writes.
    const created: string[] = [];
    let refusedHttp: Response | undefined;
    for (let i = 0; i < 5_000 && !refusedHttp; i++) {
      const res = await createRoom(`full_${i}`);
      if (res.status === 201) created.push(`full_${i}`);
      else refusedHttp = res;
    }
    expect(refusedHttp?.status).toBe(503);
    expect(await refusedHttp!.json()).toMatchObject({ code: 'STORAGE_FULL' });

    const accepted: string[] = [];
    let refusedMqtt: Error | undefined;
    const work = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 5_000 && !refusedMqtt; i++) {
      try {
        await agent.client.publishAsync('rooms/r1/agents/agent.writer/work', JSON.stringify({ n: i, work }), {
          qos: 1,
        });
        accepted.push(`"n":${i},`);
      } catch (error) {
        refusedMqtt = error as Error;
      }
    }
    expect(refusedMqtt).toBeDefined();
    expect(server.output()).toMatch(/"code":"STORAGE_FULL"/);

    // Space comes back: writes succeed again without a restart.
    rmSync(join(dir, 'filler'), { force: true });
    const after = await createRoom('after_space');
    expect(after.status).toBe(201);
    await agent.client.publishAsync('rooms/r1/agents/agent.writer/work', JSON.stringify({ n: 'after' }), { qos: 1 });
    await agent.client.endAsync(true);

    // Everything acknowledged is there after a crash and a restart.
    await killed(server.child);
    server = undefined;
    const check = new SqliteStore({ file });
    const rooms = new Set((await check.rooms.listRooms()).map((r) => r.id));
    const history = (
      await check.rooms.listMessages({ roomId: 'r1', limit: 10_000, topicKinds: ['work'] })
    ).messages.map((m) => new TextDecoder().decode(m.payload));
    await check.close();
    expect([...created, 'after_space'].filter((id) => !rooms.has(id))).toEqual([]);
    expect(accepted.filter((marker) => !history.some((h) => h.includes(marker)))).toEqual([]);
  });
});
