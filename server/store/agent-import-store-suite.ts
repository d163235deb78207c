// The AgentImportStore contract as one Vitest suite that every engine must pass unchanged: SQLite
// in sqlite/sqlite-agent-import-store.test.ts, PostgreSQL in pg/pg-agent-import-store.test.ts.
// `makeStore` must return an empty store; each test closes it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAgent } from './agent-import-store';
import type { Store } from './store';

const T0 = 1_760_000_000_000;

const imported = (id: string, patch: Partial<ImportedAgent> = {}): ImportedAgent => ({
  id,
  url: `https://${id}.example/.well-known/agent-card.json`,
  name: `Agent ${id}`,
  card: {
    name: `Agent ${id}`,
    description: 'Answers questions about <b>weather</b> ☂',
    version: '1.0.0',
    url: `https://${id}.example/a2a`,
    skills: [{ id: 'forecast', name: 'Forecast', description: 'A forecast', tags: ['weather'], examples: ['Rain?'] }],
  },
  importedBy: 'did:key:zFacilitator',
  importedAt: T0,
  lastFetchedAt: T0,
  ...patch,
});

export function describeAgentImportContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`AgentImportStore contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('puts, lists oldest first, gets, counts and removes imports, the card as it was put', async () => {
      expect(await store.agentImports.putImport(imported('b', { importedAt: T0 + 5 }))).toEqual({
        agent: imported('b', { importedAt: T0 + 5 }),
        refreshed: false,
      });
      await store.agentImports.putImport(imported('a'));
      expect((await store.agentImports.listImports()).map((a) => a.id)).toEqual(['a', 'b']);
      expect(await store.agentImports.getImport('a')).toEqual(imported('a'));
      expect(await store.agentImports.getImport('zz')).toBeUndefined();
      expect(await store.agentImports.countImports()).toBe(2);
      expect(await store.agentImports.removeImport('a')).toEqual(imported('a'));
      expect(await store.agentImports.removeImport('a')).toBeUndefined();
      expect((await store.agentImports.listImports()).map((a) => a.id)).toEqual(['b']);
      expect(await store.agentImports.countImports()).toBe(1);
    });

    it('refreshes an imported URL in place: new name, card and fetch time; the first id, importer and time kept', async () => {
      const first = imported('a');
      await store.agentImports.putImport(first);
      const again = imported('other', {
        url: first.url,
        name: 'Renamed',
        card: { ...first.card, name: 'Renamed', skills: [] },
        importedBy: 'did:key:zSomeoneElse',
        importedAt: T0 + 60_000,
        lastFetchedAt: T0 + 60_000,
      });
      const put = await store.agentImports.putImport(again);
      expect(put.refreshed).toBe(true);
      expect(put.agent).toEqual({
        ...first,
        name: 'Renamed',
        card: again.card,
        lastFetchedAt: T0 + 60_000,
      });
      expect(await store.agentImports.listImports()).toEqual([put.agent]);
    });

    it('leaves one row when one URL is imported twice at once', async () => {
      const a = imported('x');
      const results = await Promise.all([
        store.agentImports.putImport(a),
        store.agentImports.putImport({ ...a, id: 'y', lastFetchedAt: T0 + 1 }),
      ]);
      expect(results.filter((r) => r.refreshed)).toHaveLength(1);
      expect(await store.agentImports.countImports()).toBe(1);
    });
  });
}
