// The NegotiationStore contract against a real SQLite file, plus what only the file can show:
// nothing accepted is lost across close and reopen, and the log's triggers refuse every change
// but the public view, whoever writes to the file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { appendEntry, verifyChain } from '@shared/negotiation/transparency-log';
import { DEFAULT_LIMITS } from '@shared/negotiation/manifest';
import { T0 } from '@shared/negotiation/test-support/fixtures';
import { acceptedPair, describeNegotiationStoreContract } from '../negotiation-store-suite';
import { SqliteStore } from './sqlite-store';

const root = mkdtempSync(join(tmpdir(), 'switchboard-negotiation-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshFile = () => join(root, `store-${++counter}`, 'switchboard.sqlite');

describeNegotiationStoreContract('SQLite', async () => new SqliteStore({ file: freshFile() }));

async function storeWithAgreement(file: string) {
  const store = new SqliteStore({ file });
  const { open, proposed, accepted } = acceptedPair();
  await store.negotiations.create({
    id: open.negotiation_id,
    state: open,
    limits: DEFAULT_LIMITS,
    deadlineAt: null,
    createdAt: T0,
  });
  await store.negotiations.save(open.negotiation_id, 1, { state: proposed, deadlineAt: null, now: T0 });
  await store.negotiations.save(open.negotiation_id, 2, {
    state: accepted,
    deadlineAt: null,
    now: T0,
    appendLog: (head) => appendEntry(head, { agreement: accepted.agreement!, now: T0 }),
  });
  return { store, accepted };
}

describe('SQLite negotiation store file', () => {
  it('keeps an accepted negotiation, its agreement and its log entry across close and reopen', async () => {
    const file = freshFile();
    const { store, accepted } = await storeWithAgreement(file);
    const entry = await store.negotiations.logEntry(0);
    await store.close();
    const reopened = new SqliteStore({ file });
    const record = await reopened.negotiations.get(accepted.negotiation_id);
    expect(record?.state).toEqual(accepted);
    expect(record).toMatchObject({ version: 3, logIndex: 0 });
    expect(await reopened.negotiations.logEntry(0)).toEqual(entry);
    expect(verifyChain((await reopened.negotiations.logPage(0, 10)).entries).ok).toBe(true);
    await reopened.close();
  });

  it('refuses, in the engine, any delete, any out-of-chain insert and any update but the public view', async () => {
    const file = freshFile();
    const { store, accepted } = await storeWithAgreement(file);
    await store.close();
    const db = new Database(file);
    try {
      expect(() => db.prepare('DELETE FROM negotiation_log').run()).toThrow(/append-only/);
      expect(() => db.prepare("UPDATE negotiation_log SET integrity_hash = 'x' WHERE log_index = 0").run()).toThrow(
        /only the public view/,
      );
      expect(() => db.prepare("UPDATE negotiation_log SET entry_hash = 'x' WHERE log_index = 0").run()).toThrow(
        /only the public view/,
      );
      expect(() => db.prepare("UPDATE negotiation_log SET timestamp = 'x' WHERE log_index = 0").run()).toThrow(
        /only the public view/,
      );
      const insert = db.prepare(
        'INSERT INTO negotiation_log (log_index, prev_hash, timestamp, kind, integrity_hash, entry_hash, public, negotiation_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      expect(() => insert.run(5, 'sha256-x', 't', 'agreement', 'h', 'e5', '{}', 'n')).toThrow(/follow the head/);
      expect(() => insert.run(1, 'sha256-wrong', 't', 'agreement', 'h', 'e1', '{}', 'n')).toThrow(/follow the head/);
      expect(() => db.prepare('DELETE FROM negotiations').run()).toThrow(/kept/);
      expect(() => db.prepare('UPDATE negotiations SET version = 1').run()).toThrow(/forward/);
      // The one allowed change: the public view (redaction, co-signature).
      expect(db.prepare("UPDATE negotiation_log SET public = '{}' WHERE log_index = 0").run().changes).toBe(1);
      expect(db.prepare('SELECT count(*) AS n FROM negotiations WHERE id = ?').get(accepted.negotiation_id)).toEqual({
        n: 1,
      });
    } finally {
      db.close();
    }
  });
});
