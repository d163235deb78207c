// The inbox on PostgreSQL: items from real MQTT agents are read back from that engine at a
// restart, as on SQLite (inbox.test.ts), since the inbox keeps nothing of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxList, type InboxItem } from '@shared/contract/inbox';
import { hashPassword } from '../auth/password';
import { loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { connectClient, type TestClient } from '../test-support/mqtt-clients';
import { usePgDatabase } from '../test-support/pg-database';
import { sessionCookie } from '../test-support/sessions';

const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const pg = usePgDatabase();
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-inbox-pg-'));
let sb: RunningSwitchboard;
let cookie: string;
const clients: TestClient[] = [];
let seq = 0;

const boot = async () => {
  sb = await startSwitchboard(
    loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0', DATABASE_URL: await pg.url() }),
  );
  cookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
};

beforeAll(async () => {
  await boot();
  for (const agentId of ['agent.analyst', 'agent.rogue'])
    await sb.store.access.putAgentCredential({
      agentId,
      passwordHash: await hashPassword('pw'),
      createdAt: Date.now(),
    });
  await sb.store.rooms.ensureRoom({ id: 'pg-ops', name: 'On PostgreSQL', moderation: 'review' });
});

afterAll(async () => {
  for (const c of clients) await c.client.endAsync(true);
  await sb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const nowS = () => Math.floor(Date.now() / 1000);
const list = async () =>
  InboxList.parse(await (await fetch(`${sb.url}/api/inbox`, { headers: { cookie } })).json()).items;

async function until(match: (items: InboxItem[]) => boolean): Promise<InboxItem[]> {
  for (;;) {
    const items = await list();
    if (match(items)) return items;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const candidate = (agentId: string, task: string) =>
  JSON.stringify({
    id: `cand_${++seq}`,
    type: 'result',
    room_id: 'pg-ops',
    from: { kind: 'agent', id: agentId },
    ts: nowS(),
    payload: { task_id: task, message_type: 'result', content: { text: `from ${agentId}` } },
  });

describe('the inbox on PostgreSQL', () => {
  it('shows a review item and a reject burst from real agents, and rebuilds both after a restart', async () => {
    const console_ = await connectClient(sb.url.replace('http', 'ws') + '/mqtt', {
      wsOptions: { headers: { cookie, origin: sb.url } },
    });
    await console_.client.publishAsync(
      'rooms/pg-ops/control',
      JSON.stringify({
        id: 'grant_pg',
        type: 'mic_grant',
        room_id: 'pg-ops',
        from: { kind: 'user', id: FACILITATOR },
        ts: nowS(),
        payload: {
          task_id: 't1',
          agent_id: 'agent.analyst',
          max_messages: 10,
          allowed_message_types: ['result'],
          expires_at: nowS() + 3600,
        },
      }),
      { qos: 1 },
    );
    await console_.client.endAsync(true);
    while (!(await sb.store.rooms.getGrant('pg-ops', 'agent.analyst', 't1')))
      await new Promise((r) => setTimeout(r, 20));
    const analyst = await connectClient(sb.mqttUrl, { username: 'agent.analyst', password: 'pw' });
    const rogue = await connectClient(sb.mqttUrl, { username: 'agent.rogue', password: 'pw' });
    clients.push(analyst, rogue);
    await analyst.client.publishAsync('rooms/pg-ops/public_candidates', candidate('agent.analyst', 't1'), { qos: 1 });
    for (let i = 0; i < 6; i++)
      await rogue.client.publishAsync('rooms/pg-ops/public_candidates', candidate('agent.rogue', 'none'), { qos: 1 });
    const before = await until(
      (items) => items.some((i) => i.kind === 'review') && items.some((i) => i.kind === 'rejects'),
    );
    expect(before.find((i) => i.kind === 'rejects')?.title).toBe(
      'agent.rogue: 6 rejects in 10 minutes in On PostgreSQL',
    );
    expect(before.find((i) => i.kind === 'review')?.quote).toBe('from agent.analyst');

    for (const c of clients.splice(0)) await c.client.endAsync(true);
    await sb.close();
    await boot();
    expect(await list()).toEqual(before);
  });
});
