// The AgentImportStore contract on a real SQLite file per test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeAgentImportContract } from '../agent-import-store-suite';
import { SqliteStore } from './sqlite-store';

const root = mkdtempSync(join(tmpdir(), 'switchboard-imports-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

describeAgentImportContract(
  'SQLite',
  async () => new SqliteStore({ file: join(root, `store-${++counter}`, 'switchboard.sqlite') }),
);
