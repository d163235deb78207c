// The demo's Agora agents against the real app: they register signed manifests,
// answer the concierge's REQUEST with an OFFER and, once accepted, a RESULT: every envelope
// through the relay's HTTP API.
import { afterEach, describe, expect, it } from 'vitest';
import { relayApp, type RelayApp } from '../../test-support/relay-app';
import { sessionCookie } from '../../test-support/sessions';
import { startAgoraDemo, type AgoraDemoHandle } from './agora-demo';

let r: RelayApp;
let demo: AgoraDemoHandle | undefined;
afterEach(async () => {
  await demo?.stop();
  r.services.feed.close();
  await r.temp.dispose();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached');
}

describe('Agora demo agents', () => {
  it('fill the directory and complete a thread: REQUEST → OFFER → ACCEPT → RESULT, each signed by its sender', async () => {
    r = relayApp();
    const errors: unknown[] = [];
    demo = await startAgoraDemo({
      fetch: (input, init) => r.app.request(input, init),
      baseUrl: '',
      seed: 7,
      now: () => r.clock.now(),
      conciergeEveryMs: 0,
      resultDelayMs: 0,
      pollSeconds: 1,
      onError: (error) => errors.push(error),
    });
    const entries = (await (await r.get('/agents')).json()) as { agent_name: string; tools: Record<string, unknown> }[];
    expect(entries.map((e) => e.agent_name)).toEqual(['Demo Room Booker', 'Demo Translator', 'Demo Weather']);
    expect(Object.keys(entries[1]!.tools)).toContain('translation.en_zh');
    // Each agent long-polls its own inbox, so the directory shows it online.
    const listening = await until(
      async () => (await (await r.get('/agents')).json()) as { presence: { status: string; sources: string[] } }[],
      (list) => list.every((e) => e.presence.status === 'online'),
    );
    expect(listening.map((e) => e.presence.sources)).toEqual([['listening'], ['listening'], ['listening']]);

    const threadId = await demo.ask();
    const thread = await until(
      () => r.services.relay.store.getThread(threadId),
      (t) => t?.state.status === 'COMPLETED',
    );
    expect(thread?.state.status).toBe('COMPLETED');
    const events = await r.services.relay.store.threadEvents(threadId, 10);
    expect(events.map((e) => e.type)).toEqual(['REQUEST', 'OFFER', 'ACCEPT', 'RESULT']);
    const translator = demo.agents.find((a) => a.name === 'Demo Translator')!;
    expect(events.map((e) => e.sender)).toEqual([demo.conciergeDid, translator.did, demo.conciergeDid, translator.did]);
    expect(JSON.parse(events[3]!.json)).toMatchObject({
      payload: { status: 'success', output: { translation: '你好，世界' } },
    });
    expect(errors).toEqual([]);
  });

  it('keeps its DIDs across restarts (keys follow from the demo seed) and leaves seeded threads alone', async () => {
    r = relayApp({ demo: true });
    const options = {
      fetch: (input: string, init?: RequestInit) => r.app.request(input, init),
      baseUrl: '',
      now: () => r.clock.now(),
      conciergeEveryMs: 0,
      resultDelayMs: 0,
      pollSeconds: 1,
    };
    const errors: unknown[] = [];
    demo = await startAgoraDemo({ ...options, seed: 7, onError: (e) => errors.push(e) });
    const first = demo.agents.map((a) => a.did);
    const facilitator = {
      origin: 'http://localhost',
      cookie: await sessionCookie(r.temp.store, 'did:key:z6MkSeedFacilitator', 'facilitator', r.clock.now()),
    };
    expect(await (await r.post('', '/seed', facilitator)).json()).toEqual({ ok: true, count: 12 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await demo.stop();
    r.clock.advance(1000);
    demo = await startAgoraDemo({ ...options, seed: 7, onError: (e) => errors.push(e) });
    expect(demo.agents.map((a) => a.did)).toEqual(first);
    expect((await (await r.get('/agents')).json()) as unknown[]).toHaveLength(3);
    expect(errors).toEqual([]);
    const threads = await r.services.relay.store.listThreads({ limit: 10 });
    expect(threads.map((t) => t.state.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
  });
});
