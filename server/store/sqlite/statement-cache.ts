// better-sqlite3 prepares a statement per call of `prepare`; the stores reuse one per SQL text.
import type Database from 'better-sqlite3';

/** Prepared once per SQL text. Filter lists vary the text, so the cache is bounded. */
export function statementCache(db: Database.Database, max = 500): (text: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (text) => {
    let statement = statements.get(text);
    if (!statement) {
      if (statements.size >= max) statements.clear();
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
}
