// The WebhookStore contract as one Vitest suite that every engine must pass unchanged: SQLite in
// sqlite/sqlite-webhook-store.test.ts, PostgreSQL in pg/pg-webhook-store.test.ts. `makeStore`
// must return an empty store; each test closes it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './store';
import type { WebhookEndpoint, WebhookEvent } from './webhook-store';

const T0 = 1_760_000_000_000;
const ADDED = 'inbox.item.added';
const REMOVED = 'inbox.item.removed';

const endpoint = (id: string, patch: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  url: `https://${id}.example/hook`,
  events: [ADDED, REMOVED],
  kinds: ['review', 'cosign'],
  secret: `whsec_${id}`,
  origin: 'console',
  createdBy: 'did:key:zFacilitator',
  createdAt: T0,
  disabled: false,
  ...patch,
});

const event = (id: string, patch: Partial<WebhookEvent> = {}): WebhookEvent => ({
  id,
  type: ADDED,
  kind: 'review',
  payload: new TextEncoder().encode(`{"id":"${id}"}`),
  createdAt: T0 + 10,
  ...patch,
});

export function describeWebhookContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`WebhookStore contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('puts, replaces, lists in creation order and removes endpoints', async () => {
      await store.webhooks.putEndpoint(endpoint('b', { createdAt: T0 + 5 }));
      expect(await store.webhooks.putEndpoint(endpoint('a', { origin: 'env', createdBy: null }))).toEqual(
        endpoint('a', { origin: 'env', createdBy: null }),
      );
      await store.webhooks.putEndpoint(endpoint('b', { kinds: ['service'], disabled: true, createdAt: T0 + 5 }));
      expect((await store.webhooks.listEndpoints()).map((e) => [e.id, e.kinds, e.disabled])).toEqual([
        ['a', ['review', 'cosign'], false],
        ['b', ['service'], true],
      ]);
      expect(await store.webhooks.getEndpoint('zz')).toBeUndefined();
      expect(await store.webhooks.removeEndpoint('a')).toBe(true);
      expect(await store.webhooks.removeEndpoint('a')).toBe(false);
      expect((await store.webhooks.listEndpoints()).map((e) => e.id)).toEqual(['b']);
    });

    it('enqueues an event once, for every enabled endpoint whose events and kinds match', async () => {
      await store.webhooks.putEndpoint(endpoint('all'));
      await store.webhooks.putEndpoint(endpoint('cosign-only', { kinds: ['cosign'] }));
      await store.webhooks.putEndpoint(endpoint('removals', { events: [REMOVED], kinds: ['review'] }));
      await store.webhooks.putEndpoint(endpoint('off', { disabled: true }));

      const first = await store.webhooks.enqueue(event('evt_1'));
      expect(first.duplicate).toBe(false);
      expect(first.deliveries).toHaveLength(1);
      expect(await store.webhooks.enqueue(event('evt_1'))).toEqual({ deliveries: [], duplicate: true });
      const [row] = await store.webhooks.listDeliveries('all', 10);
      expect(row).toMatchObject({
        id: first.deliveries[0],
        endpointId: 'all',
        eventId: 'evt_1',
        eventType: ADDED,
        attempts: 0,
        nextAttemptAt: T0 + 10,
        state: 'pending',
        lastStatus: null,
        lastError: null,
        createdAt: T0 + 10,
        updatedAt: null,
      });
      expect(new TextDecoder().decode(row!.payload)).toBe('{"id":"evt_1"}');
      expect(await store.webhooks.listDeliveries('cosign-only', 10)).toEqual([]);
      expect(await store.webhooks.listDeliveries('off', 10)).toEqual([]);

      const removal = await store.webhooks.enqueue(event('evt_2', { type: REMOVED }));
      expect(removal.deliveries).toHaveLength(2);
      expect((await store.webhooks.listDeliveries('removals', 10)).map((d) => d.eventId)).toEqual(['evt_2']);
      expect(new Set(removal.deliveries).size).toBe(2);
    });

    it('sends a test event only to the endpoint named, whatever its filters', async () => {
      await store.webhooks.putEndpoint(endpoint('a', { kinds: ['service'] }));
      await store.webhooks.putEndpoint(endpoint('b'));
      const test = await store.webhooks.enqueue(event('evt_t', { type: 'webhook.test', kind: null }), 'a');
      expect(test.deliveries).toHaveLength(1);
      expect((await store.webhooks.listDeliveries('a', 10)).map((d) => d.eventType)).toEqual(['webhook.test']);
      expect(await store.webhooks.listDeliveries('b', 10)).toEqual([]);
      expect((await store.webhooks.enqueue(event('evt_u', { type: 'webhook.test', kind: null }))).deliveries).toEqual(
        [],
      );
      expect(await store.webhooks.enqueue(event('evt_v', { type: 'webhook.test', kind: null }), 'nope')).toEqual({
        deliveries: [],
        duplicate: false,
      });
    });

    it('records nothing for an event no endpoint takes, so a later subscriber still gets it', async () => {
      expect(await store.webhooks.enqueue(event('evt_1', { kind: 'slot' }))).toEqual({
        deliveries: [],
        duplicate: false,
      });
      await store.webhooks.putEndpoint(endpoint('slots', { kinds: ['slot'] }));
      expect((await store.webhooks.enqueue(event('evt_1', { kind: 'slot' }))).deliveries).toHaveLength(1);
    });

    it('leases a due row to one caller until the lease runs out, and settles only under that lease', async () => {
      await store.webhooks.putEndpoint(endpoint('a'));
      const { deliveries } = await store.webhooks.enqueue(event('evt_1'));
      const id = deliveries[0]!;
      expect(await store.webhooks.claimDue(T0 + 9, T0 + 100, 10, 'early')).toEqual([]);
      const [leased] = await store.webhooks.claimDue(T0 + 10, T0 + 1000, 10, 'one');
      expect(leased).toMatchObject({ id, lease: 'one', url: 'https://a.example/hook', secret: 'whsec_a' });
      expect(await store.webhooks.claimDue(T0 + 999, T0 + 2000, 10, 'two')).toEqual([]);
      expect(await store.webhooks.nextDue()).toBe(T0 + 1000);
      // The first holder died; the lease ran out and another takes the row.
      const [again] = await store.webhooks.claimDue(T0 + 1000, T0 + 3000, 10, 'two');
      expect(again?.id).toBe(id);
      expect(await store.webhooks.settle(id, 'one', { state: 'delivered', status: 200, at: T0 + 1001 })).toBe(false);
      expect(await store.webhooks.settle(id, 'two', { state: 'delivered', status: 204, at: T0 + 1002 })).toBe(true);
      expect(await store.webhooks.settle(id, 'two', { state: 'delivered', status: 204, at: T0 + 1003 })).toBe(false);
      const [row] = await store.webhooks.listDeliveries('a', 10);
      expect(row).toMatchObject({
        state: 'delivered',
        attempts: 1,
        lastStatus: 204,
        lastError: null,
        updatedAt: T0 + 1002,
      });
      expect(await store.webhooks.claimDue(T0 + 100_000, T0 + 200_000, 10, 'three')).toEqual([]);
      expect(await store.webhooks.nextDue()).toBeUndefined();
    });

    it('reschedules a failed attempt, then ends the row failed', async () => {
      await store.webhooks.putEndpoint(endpoint('a'));
      const id = (await store.webhooks.enqueue(event('evt_1'))).deliveries[0]!;
      await store.webhooks.claimDue(T0 + 10, T0 + 500, 10, 'l1');
      expect(
        await store.webhooks.settle(id, 'l1', {
          state: 'pending',
          status: 503,
          error: 'answered 503',
          at: T0 + 20,
          nextAttemptAt: T0 + 10_000,
        }),
      ).toBe(true);
      expect(await store.webhooks.nextDue()).toBe(T0 + 10_000);
      expect(await store.webhooks.claimDue(T0 + 9_999, T0 + 20_000, 10, 'l2')).toEqual([]);
      const [retry] = await store.webhooks.claimDue(T0 + 10_000, T0 + 20_000, 10, 'l2');
      expect(retry).toMatchObject({ id, attempts: 1, lastStatus: 503, lastError: 'answered 503' });
      await store.webhooks.settle(id, 'l2', { state: 'failed', status: null, error: 'timed out', at: T0 + 10_050 });
      expect((await store.webhooks.listDeliveries('a', 10))[0]).toMatchObject({
        state: 'failed',
        attempts: 2,
        lastStatus: null,
        lastError: 'timed out',
      });
      expect(await store.webhooks.claimDue(T0 + 999_999, T0 + 1_999_999, 10, 'l3')).toEqual([]);
    });

    it('gives concurrent callers disjoint rows, oldest due first, at most the limit each', async () => {
      await store.webhooks.putEndpoint(endpoint('a'));
      for (let i = 0; i < 12; i++) await store.webhooks.enqueue(event(`evt_${i}`, { createdAt: T0 + i }));
      const [x, y] = await Promise.all([
        store.webhooks.claimDue(T0 + 100, T0 + 1000, 5, 'x'),
        store.webhooks.claimDue(T0 + 100, T0 + 1000, 5, 'y'),
      ]);
      expect(x).toHaveLength(5);
      expect(y).toHaveLength(5);
      const ids = [...x!, ...y!].map((d) => d.eventId);
      expect(new Set(ids).size).toBe(10);
      const rest = await store.webhooks.claimDue(T0 + 100, T0 + 1000, 5, 'z');
      expect(rest.map((d) => d.eventId).sort()).toEqual(
        ['evt_0', 'evt_1', 'evt_10', 'evt_11', 'evt_2', 'evt_3', 'evt_4', 'evt_5', 'evt_6', 'evt_7', 'evt_8', 'evt_9']
          .filter((e) => !ids.includes(e))
          .sort(),
      );
      expect(x!.map((d) => d.createdAt)).toEqual([...x!.map((d) => d.createdAt)].sort((p, q) => p - q));
    });

    it("holds a disabled endpoint's rows, and removing an endpoint removes its rows", async () => {
      await store.webhooks.putEndpoint(endpoint('a'));
      await store.webhooks.putEndpoint(endpoint('b'));
      await store.webhooks.enqueue(event('evt_1'));
      await store.webhooks.putEndpoint(endpoint('a', { disabled: true }));
      expect((await store.webhooks.claimDue(T0 + 10, T0 + 20, 10, 'l')).map((d) => d.endpointId)).toEqual(['b']);
      expect(await store.webhooks.removeEndpoint('a')).toBe(true);
      expect(await store.webhooks.listDeliveries('a', 10)).toEqual([]);
      expect(await store.webhooks.listDeliveries('b', 10)).toHaveLength(1);
      // The event id is remembered even after its rows are gone.
      expect((await store.webhooks.enqueue(event('evt_1'))).duplicate).toBe(true);
    });

    it("lists an endpoint's deliveries newest first, up to the limit", async () => {
      await store.webhooks.putEndpoint(endpoint('a'));
      for (let i = 0; i < 4; i++) await store.webhooks.enqueue(event(`evt_${i}`, { createdAt: T0 + i }));
      expect((await store.webhooks.listDeliveries('a', 3)).map((d) => d.eventId)).toEqual(['evt_3', 'evt_2', 'evt_1']);
      await expect(store.webhooks.listDeliveries('a', 0)).rejects.toThrow();
    });

    it('prunes settled deliveries older than the horizon and the event ids no row names any more, never a pending row', async () => {
      const DAY = 86_400_000;
      await store.webhooks.putEndpoint(endpoint('a'));
      await store.webhooks.putEndpoint(endpoint('b', { kinds: ['cosign'] }));
      await store.webhooks.enqueue(event('evt_done', { createdAt: T0 }));
      await store.webhooks.enqueue(event('evt_failed', { createdAt: T0 + 1 }));
      await store.webhooks.enqueue(event('evt_waiting', { createdAt: T0 + 2 }));
      await store.webhooks.enqueue(event('evt_young', { createdAt: T0 + 8 * DAY }));
      const leased = await store.webhooks.claimDue(T0 + 10, T0 + 1_000, 2, 'L');
      expect(leased.map((d) => d.eventId)).toEqual(['evt_done', 'evt_failed']);
      await store.webhooks.settle(leased[0]!.id, 'L', { state: 'delivered', status: 200, at: T0 + 20 });
      await store.webhooks.settle(leased[1]!.id, 'L', { state: 'failed', status: 500, error: 'no', at: T0 + 20 });
      expect(await store.webhooks.prune(T0 + 7 * DAY)).toEqual({ deliveries: 2, events: 2 });
      expect((await store.webhooks.listDeliveries('a', 10)).map((d) => d.eventId)).toEqual([
        'evt_young',
        'evt_waiting',
      ]);
      // The pruned ids are gone: the same change seen again is a new event (decisions-server.md §75).
      expect((await store.webhooks.enqueue(event('evt_done', { createdAt: T0 + 9 * DAY }))).duplicate).toBe(false);
      // The kept one still is one.
      expect((await store.webhooks.enqueue(event('evt_waiting'))).duplicate).toBe(true);
      expect(await store.webhooks.prune(T0 + 7 * DAY)).toEqual({ deliveries: 0, events: 0 });
    });
  });
}
