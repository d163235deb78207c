// SQLite side of agent-import-store.ts.
import type Database from 'better-sqlite3';
import type { AgentImportStore, ImportedAgent } from '../agent-import-store';
import { toImport, type ImportRow } from '../rows/agent-import-rows';

export class SqliteAgentImportStore implements AgentImportStore {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  async listImports(): Promise<ImportedAgent[]> {
    return (this.#db.prepare('SELECT * FROM a2a_imports ORDER BY imported_at, id').all() as ImportRow[]).map(toImport);
  }

  async getImport(id: string): Promise<ImportedAgent | undefined> {
    const row = this.#db.prepare('SELECT * FROM a2a_imports WHERE id = ?').get(id) as ImportRow | undefined;
    return row && toImport(row);
  }

  async countImports(): Promise<number> {
    return (this.#db.prepare('SELECT count(*) AS n FROM a2a_imports').get() as { n: number }).n;
  }

  async putImport(a: ImportedAgent): Promise<{ agent: ImportedAgent; refreshed: boolean }> {
    const row = this.#db
      .prepare(
        `INSERT INTO a2a_imports (id, url, name, card, imported_by, imported_at, last_fetched_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (url) DO UPDATE SET name = excluded.name, card = excluded.card,
           last_fetched_at = excluded.last_fetched_at
         RETURNING *`,
      )
      .get(a.id, a.url, a.name, JSON.stringify(a.card), a.importedBy, a.importedAt, a.lastFetchedAt) as ImportRow;
    return { agent: toImport(row), refreshed: row.id !== a.id };
  }

  async removeImport(id: string): Promise<ImportedAgent | undefined> {
    const row = this.#db.prepare('DELETE FROM a2a_imports WHERE id = ? RETURNING *').get(id) as ImportRow | undefined;
    return row && toImport(row);
  }
}
