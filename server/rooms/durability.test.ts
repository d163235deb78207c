// Durability: SIGKILL the server during traffic; every message that reached `public` is in
// history after the restart, and the grant's spent count matches what was approved.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { connectClient } from '../test-support/mqtt-clients';
import { killed, startServerProcess, type ServerProcess } from '../test-support/server-process';
import { sessionCookie } from '../test-support/sessions';

const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-kill-'));
const file = join(dataDir, 'switchboard.sqlite');
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
let server: ServerProcess | undefined;

afterAll(async () => {
  if (server) await killed(server.child);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a crash loses nothing that was published', () => {
  it('keeps every message a subscriber saw on public through a SIGKILL and a restart', async () => {
    server = await startServerProcess({ DATA_DIR: dataDir });
    const setup = new SqliteStore({ file });
    await setup.rooms.ensureRoom({ id: 'r1', name: 'Room', moderation: 'auto' });
    await setup.access.putAgentCredential({
      agentId: 'agent.writer',
      passwordHash: await hashPassword('pw'),
      createdAt: Date.now(),
    });
    const cookie = await sessionCookie(setup, FACILITATOR, 'facilitator');
    await setup.close();

    const wsUrl = server.url.replace('http', 'ws') + '/mqtt';
    const facilitator = await connectClient(wsUrl, { wsOptions: { headers: { cookie, origin: server.url } } });
    await facilitator.client.subscribeAsync('rooms/r1/public', { qos: 1 });
    const now = Math.floor(Date.now() / 1000);
    await facilitator.client.publishAsync(
      'rooms/r1/control',
      JSON.stringify({
        id: 'grant_1',
        type: 'mic_grant',
        room_id: 'r1',
        from: { kind: 'user', id: FACILITATOR },
        ts: now,
        payload: {
          task_id: 't1',
          agent_id: 'agent.writer',
          max_messages: 10_000,
          allowed_message_types: ['progress'],
          expires_at: now + 3600,
        },
      }),
      { qos: 1 },
    );

    const seen = new Set<string>();
    const enough = new Promise<void>((resolve) => {
      facilitator.client.on('message', (_topic, payload) => {
        seen.add((JSON.parse(payload.toString()) as { id: string }).id);
        if (seen.size === 150) resolve();
      });
    });
    const agent = await connectClient(server.mqttUrl, { username: 'agent.writer', password: 'pw' });
    agent.client.on('error', () => undefined);
    facilitator.client.on('error', () => undefined);
    // Keep publishing, without waiting, so the kill lands in the middle of traffic.
    let sent = 0;
    const pump = setInterval(() => {
      // Bounded backlog: a real agent does not queue tens of thousands of unacknowledged messages.
      for (let i = 0; i < 20 && agent.client.connected && sent - seen.size < 300; i++) {
        const id = `c_${++sent}`;
        agent.client.publish(
          'rooms/r1/public_candidates',
          JSON.stringify({
            id,
            type: 'result',
            room_id: 'r1',
            from: { kind: 'agent', id: 'agent.writer' },
            ts: now,
            payload: { task_id: 't1', message_type: 'progress', content: { text: `step ${sent}` } },
          }),
          { qos: 1 },
        );
      }
    }, 2);
    await enough;
    await killed(server.child);
    clearInterval(pump);
    const seenAtKill = new Set(seen);
    agent.client.end(true);
    facilitator.client.end(true);

    server = await startServerProcess({ DATA_DIR: dataDir });
    const after = new SqliteStore({ file });
    const stored = new Set<string>();
    // Forward from the start: without `after` a page is the newest one, not the first.
    let cursor = 0;
    for (;;) {
      const page = await after.rooms.listMessages({ roomId: 'r1', limit: 500, topicKinds: ['public'], after: cursor });
      for (const m of page.messages) if (m.messageId) stored.add(m.messageId);
      if (!page.hasMore) break;
      cursor = page.messages.at(-1)?.cursor ?? cursor;
    }
    const grant = await after.rooms.getGrant('r1', 'agent.writer', 't1');
    await after.close();

    expect(seenAtKill.size).toBeGreaterThanOrEqual(150);
    expect([...seenAtKill].filter((id) => !stored.has(id))).toEqual([]);
    // Every approval spent exactly one message, and nothing was approved that is not in history.
    expect(grant?.spent).toBe(stored.size);
  });
});
