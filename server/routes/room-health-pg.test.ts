// GET /api/rooms/{id}/health on PostgreSQL: the same journey as on SQLite (room-health.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { usePgDatabase } from '../test-support/pg-database';
import { describeRoomHealth } from '../test-support/room-health-scenario';

const pg = usePgDatabase();
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-health-pg-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('room health on PostgreSQL', () => {
  describeRoomHealth(async () => ({ DATA_DIR: dataDir, DATABASE_URL: await pg.url() }));
});
