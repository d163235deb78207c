// "No state change" made checkable: a SHA-256 of every row of every table of the SQLite file,
// read through a second, read-only connection (WAL lets it see each committed write at once).
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

export interface TableDigest {
  /** Per table: row count and a hash of the rows' contents. */
  readonly tables: Readonly<Record<string, { readonly rows: number; readonly hash: string }>>;
}

export function openTableDigest(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const names = () =>
    (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all() as { name: string }[]
    ).map((r) => r.name);
  return {
    digest(): TableDigest {
      const tables: Record<string, { rows: number; hash: string }> = {};
      for (const name of names()) {
        const hash = createHash('sha256');
        let rows = 0;
        for (const row of db.prepare(`SELECT * FROM "${name}"`).iterate() as Iterable<Record<string, unknown>>) {
          rows++;
          hash.update(
            JSON.stringify(row, (_key, value: unknown) =>
              Buffer.isBuffer(value) ? value.toString('base64') : typeof value === 'bigint' ? String(value) : value,
            ),
          );
          hash.update('\n');
        }
        tables[name] = { rows, hash: hash.digest('hex') };
      }
      return { tables };
    },
    close: () => db.close(),
  };
}

/** The tables whose rows differ between two digests, with their row counts before → after. */
export function changedTables(before: TableDigest, after: TableDigest): string[] {
  const names = new Set([...Object.keys(before.tables), ...Object.keys(after.tables)]);
  return [...names]
    .filter((n) => before.tables[n]?.hash !== after.tables[n]?.hash)
    .map((n) => `${n} (${before.tables[n]?.rows ?? 0} → ${after.tables[n]?.rows ?? 0} rows)`);
}
