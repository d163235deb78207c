// The store commit histogram on PostgreSQL: a relay append is one group commit there too, and it
// is labelled with its engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentA, client, signed } from '@shared/agora/test-support/fixtures';
import { loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { usePgDatabase } from '../test-support/pg-database';

const TOKEN = 'metrics-token-0123456789abcdef';
const pg = usePgDatabase();
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-metrics-pg-'));
let sb: RunningSwitchboard;

beforeAll(async () => {
  sb = await startSwitchboard(
    loadConfig({
      PORT: '0',
      MQTT_PORT: '0',
      DATA_DIR: dataDir,
      DEMO: '0',
      DATABASE_URL: await pg.url(),
      METRICS_TOKEN: TOKEN,
    }),
  );
});

afterAll(async () => {
  await sb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The commit histogram's count and its engine label, read from the raw exposition. */
async function commits(): Promise<{ count: number; engines: string[] }> {
  const res = await fetch(`${sb.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const text = await res.text();
  // Parsed for validity; the parser folds a labelled histogram's series, so the label is read from the lines.
  const family = parsePrometheusTextFormat(text).find((f) => f.name === 'switchboard_store_commit_seconds');
  const engines = [...text.matchAll(/^switchboard_store_commit_seconds_count\{engine="([a-z]+)"\}/gm)].map(
    (m) => m[1]!,
  );
  return { count: Number(family?.metrics[0]?.buckets?.['+Inf'] ?? 0), engines };
}

it('times the relay append group commit on PostgreSQL, labelled postgres', async () => {
  const before = await commits();
  const request = signed('REQUEST', { from: client, to: agentA, thread: 'th_metrics_pg', ts: Date.now() });
  const posted = await fetch(`${sb.url}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  expect(posted.status).toBe(200);
  const after = await commits();
  expect(after.count).toBeGreaterThan(before.count);
  expect(after.engines).toEqual(['postgres']);
});
