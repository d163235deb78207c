// GET /api/rooms/{id}/health on SQLite (the PostgreSQL run: room-health-pg.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { describeRoomHealth } from '../test-support/room-health-scenario';

const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-health-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('room health on SQLite', () => {
  describeRoomHealth(async () => ({ DATA_DIR: dataDir }));
});
