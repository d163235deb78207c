// The NegotiationStore contract against the PostgreSQL on this machine (a fresh database for this
// file), plus what only the engine shows: the log's triggers refuse every change but the public
// view whoever writes, and concurrent acceptances from several stores (instances) on one database
// each get their own index in one unbroken chain.
import { describe, expect, it } from 'vitest';
import { Client } from 'pg';
import { appendEntry, verifyChain } from '@shared/negotiation/transparency-log';
import { DEFAULT_LIMITS } from '@shared/negotiation/manifest';
import { T0 } from '@shared/negotiation/test-support/fixtures';
import { usePgDatabase } from '../../test-support/pg-database';
import { acceptedPair, describeNegotiationStoreContract } from '../negotiation-store-suite';
import { openPgStore, type PgStore } from './pg-store';

const db = usePgDatabase();

describeNegotiationStoreContract('PostgreSQL', async () => {
  await db.reset();
  return openPgStore({ url: await db.url() });
});

/** Opens, proposes and accepts one negotiation (its id made unique by `suffix`). */
async function accept(store: PgStore, suffix: string) {
  const { open, proposed, accepted } = acceptedPair(`neg_01HX2QF8GZRP9V3K5YXJW0${suffix.padStart(4, '0')}`);
  const id = open.negotiation_id;
  await store.negotiations.create({ id, state: open, limits: DEFAULT_LIMITS, deadlineAt: null, createdAt: T0 });
  await store.negotiations.save(id, 1, { state: proposed, deadlineAt: null, now: T0 });
  return store.negotiations.save(id, 2, {
    state: accepted,
    deadlineAt: null,
    now: T0,
    appendLog: (head) => appendEntry(head, { agreement: accepted.agreement!, now: T0 }),
  });
}

describe('PostgreSQL negotiation store', () => {
  it('appends concurrent acceptances from two stores on one database as one unbroken chain', async () => {
    await db.reset();
    const url = await db.url();
    const [a, b] = await Promise.all([openPgStore({ url }), openPgStore({ url })]);
    try {
      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => accept(i % 2 ? a : b, String(i))));
      expect(outcomes.map((o) => o.outcome)).toEqual(Array(12).fill('stored'));
      const page = await a.negotiations.logPage(0, 100);
      expect(page.entries.map((e) => e.index)).toEqual([...Array(12).keys()]);
      expect(verifyChain(page.entries).ok).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('refuses, in the engine, any delete or truncate, any out-of-chain insert and any update but the public view', async () => {
    await db.reset();
    const url = await db.url();
    const store = await openPgStore({ url });
    await accept(store, '99');
    await store.close();
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const refuses = async (sql: string, message: RegExp) => expect(client.query(sql)).rejects.toThrow(message);
      await refuses('DELETE FROM negotiation_log', /append-only/);
      await refuses('TRUNCATE negotiation_log', /append-only/);
      await refuses("UPDATE negotiation_log SET integrity_hash = 'x' WHERE log_index = 0", /only the public view/);
      await refuses("UPDATE negotiation_log SET entry_hash = 'x' WHERE log_index = 0", /only the public view/);
      await refuses("UPDATE negotiation_log SET timestamp = 'x' WHERE log_index = 0", /only the public view/);
      const insert = (index: number, prev: string) =>
        `INSERT INTO negotiation_log (log_index, prev_hash, timestamp, kind, integrity_hash, entry_hash, public, negotiation_id) VALUES (${index}, '${prev}', 't', 'agreement', 'h', 'e${index}', '{}', 'n')`;
      await refuses(insert(5, 'sha256-x'), /follow the head/);
      await refuses(insert(1, 'sha256-wrong'), /follow the head/);
      await refuses('DELETE FROM negotiations', /kept/);
      await refuses('UPDATE negotiations SET version = 1', /forward/);
      // The one allowed change: the public view (redaction, co-signature).
      expect((await client.query("UPDATE negotiation_log SET public = '{}' WHERE log_index = 0")).rowCount).toBe(1);
    } finally {
      await client.end();
    }
  });
});
