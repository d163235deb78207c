// PostgreSQL side of agent-import-store.ts. The card is kept as text, as SQLite keeps it, so both
// answer the same bytes (jsonb would reorder its keys).
import type { Pool } from 'pg';
import type { AgentImportStore, ImportedAgent } from '../agent-import-store';
import { toImport, type ImportRow } from '../rows/agent-import-rows';

export class PgAgentImportStore implements AgentImportStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async listImports(): Promise<ImportedAgent[]> {
    return (await this.#pool.query<ImportRow>('SELECT * FROM a2a_imports ORDER BY imported_at, id')).rows.map(toImport);
  }

  async getImport(id: string): Promise<ImportedAgent | undefined> {
    const row = (await this.#pool.query<ImportRow>('SELECT * FROM a2a_imports WHERE id = $1', [id])).rows[0];
    return row && toImport(row);
  }

  async countImports(): Promise<number> {
    return (await this.#pool.query<{ n: number }>('SELECT count(*)::int AS n FROM a2a_imports')).rows[0]!.n;
  }

  async putImport(a: ImportedAgent): Promise<{ agent: ImportedAgent; refreshed: boolean }> {
    const { rows } = await this.#pool.query<ImportRow>(
      `INSERT INTO a2a_imports (id, url, name, card, imported_by, imported_at, last_fetched_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (url) DO UPDATE SET name = excluded.name, card = excluded.card,
         last_fetched_at = excluded.last_fetched_at
       RETURNING *`,
      [a.id, a.url, a.name, JSON.stringify(a.card), a.importedBy, a.importedAt, a.lastFetchedAt],
    );
    const row = rows[0]!;
    return { agent: toImport(row), refreshed: row.id !== a.id };
  }

  async removeImport(id: string): Promise<ImportedAgent | undefined> {
    const row = (await this.#pool.query<ImportRow>('DELETE FROM a2a_imports WHERE id = $1 RETURNING *', [id])).rows[0];
    return row && toImport(row);
  }
}
