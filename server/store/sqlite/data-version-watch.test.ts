// The SQLite side of the revocation signal (decisions-server.md §39): another connection's commit
// is seen; this connection's own commits and a passive checkpoint (the checkpoint worker) are not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { otherCommits } from './data-version-watch';

const open: Database.Database[] = [];
let dir: string | undefined;

afterEach(() => {
  for (const db of open.splice(0)) db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function connections(): [Database.Database, Database.Database] {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-data-version-'));
  const file = join(dir, 'db.sqlite');
  const server = new Database(file);
  server.pragma('journal_mode = WAL');
  server.exec('CREATE TABLE t (x)');
  const cli = new Database(file);
  open.push(server, cli);
  return [server, cli];
}

describe('otherCommits', () => {
  it("sees another connection's commit once, and neither its own commits nor a passive checkpoint", () => {
    const [server, cli] = connections();
    const changed = otherCommits(server);
    expect(changed()).toBe(false);
    server.exec('INSERT INTO t VALUES (1)');
    expect(changed()).toBe(false);
    cli.exec('INSERT INTO t VALUES (2)');
    expect(changed()).toBe(true);
    expect(changed()).toBe(false);
    cli.pragma('wal_checkpoint(PASSIVE)');
    expect(changed()).toBe(false);
    cli.exec('DELETE FROM t');
    expect(changed()).toBe(true);
  });
});
