// /api/agent-accounts through the real app (fullApp: embedded broker, SQLite): what bounds a
// facilitator's writes. Budgets per operator and per address, and the body cap, each refuse
// with a coded error and change nothing. The list is paged (decisions-server.md §87): with
// 10,000 agents a page holds `limit` rows, keyset paging meets every agent once, and a page
// costs the same store reads at 100 agents and at 10,000. The actions themselves:
// server/agents/agents-control.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { AgentAccountList } from '@shared/contract/agents';
import type { Store } from '../store/store';
import { fullApp, type FullApp } from '../test-support/full-app';

let f: FullApp | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const ONE = { capacity: 1, refillPerSecond: 0.001 };
const MANY = { capacity: 1e6, refillPerSecond: 1e6 };

const call = (app: FullApp, path: string, body: string, cookie = app.facilitator) =>
  app.app.request(`http://localhost/api/agent-accounts${path}`, {
    method: 'POST',
    headers: { cookie, origin: 'http://localhost', 'content-type': 'application/json' },
    body,
  });

describe('/api/agent-accounts bounds', () => {
  it('spends one budget per facilitator: the second write is 429 and creates nothing', async () => {
    f = await fullApp({ limits: { operatorWritesPerDid: ONE, operatorWritesPerAddress: MANY } });
    expect((await call(f, '', JSON.stringify({ agentId: 'agent.a' }))).status).toBe(201);
    const second = await call(f, '', JSON.stringify({ agentId: 'agent.b' }));
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await f.harness.store.access.listAgentCredentials()).map((c) => c.agentId)).toEqual(['agent.a']);
  });

  it('spends one budget per address, before the session is looked at', async () => {
    f = await fullApp({ limits: { operatorWritesPerDid: MANY, operatorWritesPerAddress: ONE } });
    expect((await call(f, '', JSON.stringify({ agentId: 'agent.a' }))).status).toBe(201);
    expect((await call(f, '/agent.a/disconnect', '{}')).status).toBe(429);
    expect((await f.harness.store.access.getAgentCredential('agent.a'))?.disconnectedAt).toBeNull();
  });

  it('refuses a body over the cap with 413, changing nothing', async () => {
    f = await fullApp({ limits: { operatorWritesPerDid: MANY, operatorWritesPerAddress: MANY } });
    expect((await call(f, '', JSON.stringify({ agentId: 'agent.a' }))).status).toBe(201);
    const big = await call(f, '/agent.a/suspend', JSON.stringify({ reason: 'x'.repeat(5_000) }));
    expect(big.status).toBe(413);
    expect((await call(f, '/agent.a/rotate', JSON.stringify({ pad: 'x'.repeat(5_000) }))).status).toBe(413);
    const credential = await f.harness.store.access.getAgentCredential('agent.a');
    expect(credential?.suspended).toBeNull();
    expect(await f.harness.store.access.listAudit({ limit: 10 })).toHaveLength(1);
  });
});

const FACILITATOR = 'did:key:z6MkHardeningFacilitator';
const agentId = (i: number) => `agent.bulk-${String(i).padStart(5, '0')}`;

/** Credentials straight into the store, as bench/scale.ts makes them: no hashing, no broker. */
async function addAgents(store: Store, from: number, to: number, at: number): Promise<void> {
  for (let i = from; i < to; i++)
    await store.access.putAgentCredential({ agentId: agentId(i), passwordHash: `sha256$${i}`, createdAt: at });
}

/** Counts every call to the store's rooms and access parts, by method, while `work` runs. */
async function storeCalls(store: Store, work: () => Promise<unknown>): Promise<Record<string, number>> {
  const calls: Record<string, number> = {};
  const parts = [store.rooms, store.access] as unknown as Record<string, unknown>[];
  const originals = parts.map((part) => ({ ...part }));
  for (const part of parts)
    for (const [name, method] of Object.entries(part))
      if (typeof method === 'function')
        part[name] = (...args: unknown[]) => {
          calls[name] = (calls[name] ?? 0) + 1;
          return (method as (...a: unknown[]) => unknown)(...args);
        };
  try {
    await work();
  } finally {
    parts.forEach((part, i) => Object.assign(part, originals[i]));
  }
  return calls;
}

describe('GET /api/agent-accounts pages', () => {
  const get = async (app: FullApp, query = '') => {
    const res = await app.app.request(`http://localhost/api/agent-accounts${query}`, {
      headers: { cookie: app.observer },
    });
    expect(res.status, query).toBe(200);
    return AgentAccountList.parse(await res.json());
  };

  it('serves 10,000 agents a page at a time, each once, at a cost that does not grow with them', async () => {
    f = await fullApp();
    const store = f.harness.store;
    const now = f.clock.now();
    await addAgents(store, 0, 100, now);
    // Newest actions to read back in one query, named by the operator who acted.
    await store.access.putOperator({ did: FACILITATOR, role: 'facilitator', createdAt: now, name: 'Fay' });
    for (const i of [3, 50]) {
      await store.access.setAgentSuspension(agentId(i), { at: now, by: FACILITATOR, reason: 'noisy' });
      await store.access.appendAudit({
        at: now,
        actorDid: FACILITATOR,
        action: 'agent.suspend',
        roomId: null,
        messageId: null,
        details: { agentId: agentId(i), reason: 'noisy' },
      });
    }
    const page = () => get(f!, '?limit=100');
    const atHundred = await storeCalls(store, page);

    await addAgents(store, 100, 10_000, now);
    const atTenThousand = await storeCalls(store, page);
    expect(atTenThousand).toEqual(atHundred);
    // One batched read of the newest actions and one of the operators, never one per agent.
    expect(atTenThousand).toMatchObject({ lastAgentActivity: 1, getOperators: 1 });
    expect(atTenThousand.listActivity).toBeUndefined();
    expect(atTenThousand.getOperator).toBeUndefined();
    expect(Object.values(atTenThousand).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(6);

    const first = await get(f);
    expect(first.agents).toHaveLength(100);
    expect(first.agents[0]!.agentId).toBe(agentId(0));
    expect(first.next).toBe(agentId(99));
    expect(first.counts).toEqual({ total: 10_000, suspended: 2, connected: 0 });
    expect(first.agents[3]).toMatchObject({
      suspended: { by: FACILITATOR, byName: 'Fay', reason: 'noisy' },
      lastAction: { action: 'agent.suspend', by: FACILITATOR, byName: 'Fay', lifted: null },
    });
    expect(first.agents[4]).toMatchObject({ suspended: null, lastAction: null });

    // Keyset paging at the largest page meets every agent exactly once, in id order.
    const seen: string[] = [];
    let after: string | null = '';
    let pages = 0;
    while (after !== null) {
      const next = await get(f, `?limit=500${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      expect(next.agents.length).toBeLessThanOrEqual(500);
      seen.push(...next.agents.map((a) => a.agentId));
      after = next.next;
      pages += 1;
    }
    expect(pages).toBe(20);
    expect(seen).toEqual(Array.from({ length: 10_000 }, (_, i) => agentId(i)));

    // A search is an id prefix, paged the same way; the counts stay those of every agent.
    const found = await get(f, `?search=${encodeURIComponent('agent.bulk-0999')}&limit=5`);
    expect(found.agents.map((a) => a.agentId)).toEqual([9990, 9991, 9992, 9993, 9994].map(agentId));
    expect(found.next).toBe(agentId(9994));
    const rest = await get(f, `?search=${encodeURIComponent('agent.bulk-0999')}&limit=5&after=${agentId(9994)}`);
    expect(rest.agents.map((a) => a.agentId)).toEqual([9995, 9996, 9997, 9998, 9999].map(agentId));
    expect(rest.next).toBeNull();
    expect(rest.counts.total).toBe(10_000);
    expect((await get(f, '?search=nobody')).agents).toEqual([]);
  }, 120_000);

  it('refuses a bad page query with a coded 400, changing nothing', async () => {
    f = await fullApp();
    await addAgents(f.harness.store, 0, 3, f.clock.now());
    for (const query of [
      '?limit=0',
      '?limit=501',
      '?limit=ten',
      '?limit=1.5',
      '?after=has%2Fslash',
      '?after=',
      '?search=',
      '?search=a%20b',
      `?search=${'x'.repeat(129)}`,
      '?sort=agentId',
    ]) {
      const res = await f.app.request(`http://localhost/api/agent-accounts${query}`, {
        headers: { cookie: f.observer },
      });
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toMatchObject({ code: 'INVALID_REQUEST' });
    }
    expect((await f.harness.store.access.listAgentCredentials()).map((c) => c.agentId)).toEqual([0, 1, 2].map(agentId));
    expect(await f.harness.store.access.listAudit({ limit: 10 })).toEqual([]);
    expect((await get(f, '?limit=2')).next).toBe(agentId(1));
  });
});
