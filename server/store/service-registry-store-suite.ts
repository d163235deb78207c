// The ServiceRegistryStore contract as one Vitest suite that every engine must pass
// unchanged: SQLite in sqlite/sqlite-service-registry-store.test.ts, PostgreSQL in
// pg/pg-service-registry-store.test.ts. `makeStore` must return an empty store; each test closes it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BridgedPage, ExternalService } from './service-registry-store';
import type { Store } from './store';

const T0 = 1_760_000_000_000;
const service = (id: string, patch: Partial<ExternalService> = {}): ExternalService => ({
  id,
  name: `Service ${id}`,
  baseUrl: `https://${id}.example`,
  kind: 'relay',
  readOnly: false,
  origin: 'console',
  createdAt: T0,
  ...patch,
});
const page = (serviceId: string, ids: string[], cursor: string, feed = 'recipient:did:key:zA'): BridgedPage => ({
  serviceId,
  feed,
  cursor,
  at: T0 + 1,
  envelopes: ids.map((id, i) => ({
    envelopeId: id,
    threadId: `t-${id.slice(0, 1)}`,
    json: `{"id":"${id}"}`,
    digest: `d-${id}`,
    trusted: i % 2 === 0,
    reason: i % 2 === 0 ? null : 'signature_invalid',
    receivedAt: T0 + i,
  })),
});

export function describeServiceRegistryContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`ServiceRegistryStore contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('puts, replaces, lists in creation order and removes services', async () => {
      await store.services.putService(service('b', { createdAt: T0 + 5 }));
      expect(
        await store.services.putService(service('a', { readOnly: true, kind: 'negotiation', origin: 'env' })),
      ).toEqual(service('a', { readOnly: true, kind: 'negotiation', origin: 'env' }));
      await store.services.putService(service('b', { name: 'Renamed', createdAt: T0 + 5 }));
      expect((await store.services.listServices()).map((s) => [s.id, s.name])).toEqual([
        ['a', 'Service a'],
        ['b', 'Renamed'],
      ]);
      expect(await store.services.getService('zz')).toBeUndefined();
      expect(await store.services.removeService('a')).toBe(true);
      expect(await store.services.removeService('a')).toBe(false);
      expect((await store.services.listServices()).map((s) => s.id)).toEqual(['b']);
    });

    it('stores a page and moves its cursor together; an envelope already stored is skipped', async () => {
      await store.services.putService(service('r'));
      expect(await store.services.getCursor('r', 'recipient:did:key:zA')).toBeUndefined();
      expect(await store.services.appendBridgedPage(page('r', ['a1', 'a2'], 'cur_2'))).toEqual({ stored: 2 });
      expect(await store.services.appendBridgedPage(page('r', ['a2', 'b3'], 'cur_3'))).toEqual({ stored: 1 });
      expect(await store.services.getCursor('r', 'recipient:did:key:zA')).toBe('cur_3');
      expect(await store.services.getCursor('r', 'sender:did:key:zA')).toBeUndefined();
      const all = await store.services.listBridged({ limit: 10 });
      expect(all.map((e) => e.envelopeId)).toEqual(['a1', 'a2', 'b3']);
      expect(all[0]).toMatchObject({
        serviceId: 'r',
        threadId: 't-a',
        json: '{"id":"a1"}',
        digest: 'd-a1',
        trusted: true,
        reason: null,
        receivedAt: T0,
      });
      expect(all[1]).toMatchObject({ trusted: false, reason: 'signature_invalid' });
      expect(all[0]!.seq).toBeLessThan(all[1]!.seq);
      expect(
        (await store.services.listBridged({ serviceId: 'r', threadId: 't-a', limit: 10 })).map((e) => e.envelopeId),
      ).toEqual(['a1', 'a2']);
      expect((await store.services.listBridged({ limit: 1 })).map((e) => e.envelopeId)).toEqual(['a1']);
      expect(await store.services.findBridgedDigest('r', 'a2')).toBe('d-a2');
      expect(await store.services.findBridgedDigest('r', 'nope')).toBeUndefined();
    });

    it('stores each envelope once when the same page is appended concurrently', async () => {
      await store.services.putService(service('r'));
      const results = await Promise.all(
        [1, 2, 3].map(() => store.services.appendBridgedPage(page('r', ['x1', 'x2', 'x3'], 'cur_3'))),
      );
      expect(results.reduce((n, r) => n + r.stored, 0)).toBe(3);
      expect(await store.services.listBridged({ limit: 10 })).toHaveLength(3);
    });

    it('removing a service removes its cursors, envelopes and negotiations', async () => {
      await store.services.putService(service('r'));
      await store.services.putService(service('n', { kind: 'negotiation' }));
      await store.services.appendBridgedPage(page('r', ['a1'], 'cur_1'));
      await store.services.rememberNegotiation('r', 'neg_1', T0);
      await store.services.rememberNegotiation('n', 'neg_2', T0 + 1);
      await store.services.removeService('r');
      expect(await store.services.getCursor('r', 'recipient:did:key:zA')).toBeUndefined();
      expect(await store.services.listBridged({ limit: 10 })).toEqual([]);
      expect(await store.services.listNegotiations()).toEqual([
        { serviceId: 'n', negotiationId: 'neg_2', seenAt: T0 + 1 },
      ]);
    });

    it('keeps a watch list and remembers negotiations once, newest first', async () => {
      await store.services.addWatched('did:key:zB', T0 + 1);
      await store.services.addWatched('did:key:zA', T0);
      await store.services.addWatched('did:key:zA', T0 + 9);
      expect(await store.services.listWatched()).toEqual(['did:key:zA', 'did:key:zB']);
      expect(await store.services.removeWatched('did:key:zA')).toBe(true);
      expect(await store.services.removeWatched('did:key:zA')).toBe(false);
      await store.services.putService(service('n', { kind: 'negotiation' }));
      await store.services.putService(service('m', { kind: 'negotiation' }));
      await store.services.rememberNegotiation('n', 'neg_1', T0);
      await store.services.rememberNegotiation('n', 'neg_1', T0 + 5);
      await store.services.rememberNegotiation('m', 'neg_2', T0 + 2);
      expect(await store.services.listNegotiations()).toEqual([
        { serviceId: 'm', negotiationId: 'neg_2', seenAt: T0 + 2 },
        { serviceId: 'n', negotiationId: 'neg_1', seenAt: T0 },
      ]);
      expect(await store.services.listNegotiations('n')).toEqual([
        { serviceId: 'n', negotiationId: 'neg_1', seenAt: T0 },
      ]);
    });
  });
}
