// /api/agent-accounts through the real app (fullApp: embedded broker, SQLite): what bounds a
// facilitator's writes. Budgets per operator and per address, and the body cap, each refuse
// with a coded error and change nothing. The actions themselves: server/agents/agents-control.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
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
