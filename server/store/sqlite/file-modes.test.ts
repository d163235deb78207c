// Who may read the data on disk (decisions-server.md §82): the data directory 0700, the database
// and its -wal/-shm 0600, tightened when an older build left them wider; a backup 0600, its
// temporary file at a name nobody can predict, never written through a planted symbolic link.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupSqlite, BackupRefusal } from '../../cli/sqlite-backup';
import { SqliteStore } from './sqlite-store';

const mode = (path: string) => statSync(path).mode & 0o777;
const roots: string[] = [];
const root = () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-modes-'));
  chmodSync(dir, 0o755);
  roots.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function storeIn(dir: string) {
  const store = new SqliteStore({ file: join(dir, 'switchboard.sqlite') });
  await store.access.appendAudit({
    at: 1,
    actorDid: 'did:key:z6MkModes',
    action: 'test',
    roomId: null,
    messageId: null,
    details: {},
  });
  return store;
}

describe('file modes of the SQLite store', () => {
  it('makes the data directory 0700 and the database, -wal and -shm 0600', async () => {
    const data = join(root(), 'data');
    const store = await storeIn(data);
    try {
      expect(mode(data)).toBe(0o700);
      for (const file of ['switchboard.sqlite', 'switchboard.sqlite-wal', 'switchboard.sqlite-shm'])
        expect({ file, mode: mode(join(data, file)).toString(8) }).toEqual({ file, mode: '600' });
    } finally {
      await store.close();
    }
  });

  it('tightens a directory and a database an older build left readable by others', async () => {
    const data = join(root(), 'data');
    await (await storeIn(data)).close();
    chmodSync(data, 0o755);
    chmodSync(join(data, 'switchboard.sqlite'), 0o644);
    const store = await storeIn(data);
    try {
      expect(mode(data)).toBe(0o700);
      expect(mode(join(data, 'switchboard.sqlite'))).toBe(0o600);
    } finally {
      await store.close();
    }
  });
});

describe('backup files', () => {
  it('writes the backup 0600, never through a link planted at a temporary name, and refuses a target that is a link', async () => {
    const dir = root();
    const data = join(dir, 'data');
    await (await storeIn(data)).close();
    const out = join(dir, 'out');
    mkdirSync(out, { mode: 0o755 });
    const target = join(out, 'b.sqlite');
    // Links at the names a temporary file could be given by the pid: each points at a victim.
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched');
    symlinkSync(victim, join(out, `.b.sqlite.partial-${process.pid}`));
    const now = () => 0;
    const result = await backupSqlite(join(data, 'switchboard.sqlite'), target, { force: false, now });
    expect(result.file).toBe(target);
    expect(mode(target)).toBe(0o600);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    // No temporary file is left behind besides the planted link.
    expect(readdirSync(out).sort()).toEqual(['.b.sqlite.partial-' + process.pid, 'b.sqlite']);
    const linked = join(out, 'linked.sqlite');
    symlinkSync(victim, linked);
    await expect(backupSqlite(join(data, 'switchboard.sqlite'), linked, { force: true, now })).rejects.toMatchObject({
      code: 'BACKUP_IS_SYMLINK',
    });
    await expect(backupSqlite(join(data, 'switchboard.sqlite'), linked, { force: true, now })).rejects.toBeInstanceOf(
      BackupRefusal,
    );
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(existsSync(linked)).toBe(true);
  });
});
