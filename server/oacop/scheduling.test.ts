// OACoP scheduling end to end: the real app and relay over real SQLite,
// the demo's calendar and room agents answering through the relay's HTTP API, a test client as
// the initiator, and the console's read model at /api/scheduling/threads.
import { afterEach, describe, expect, it } from 'vitest';
import { carrierPayload, type CarriedMessage } from '@shared/oacop/carrier';
import { parseSlot, subtractIntervals, toSlot } from '@shared/oacop/intervals';
import type { ProposeCollaboration, Slot } from '@shared/oacop/messages';
import { planCancellation, planConfirmation } from '@shared/oacop/scheduling-actions';
import type { SchedulingThreadView } from '@shared/oacop/scheduling-projection';
import { unwrap } from '@shared/errors';
import { AgoraClient } from '@agents/agora/agora-client';
import { demoIdentity } from '../demo/demo-identity';
import { DEMO_CALENDARS, demoCalendar } from '../demo/oacop/demo-calendars';
import { oacopDemoIdentity, startOacopDemo, type OacopDemoHandle } from '../demo/oacop/oacop-demo';
import { relayApp, type RelayApp } from '../test-support/relay-app';
import { sessionCookie } from '../test-support/sessions';
import { OacopReadModels } from './oacop-read-models';

const SEED = 7;
let r: RelayApp;
let demo: OacopDemoHandle | undefined;
afterEach(async () => {
  await demo?.stop();
  demo = undefined;
  r.services.feed.close();
  await r.temp.dispose();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what = 'condition'): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 300; i++) {
    last = await read();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what} not reached: ${JSON.stringify(last)?.slice(0, 2000)}`);
}

const did = (key: string) =>
  oacopDemoIdentity(
    SEED,
    DEMO_CALENDARS.find((p) => p.key === key)!,
  ).did;
const ADA = () => did('cal-ada');
const BRUNO = () => did('cal-bruno');
const CHITRA = () => did('cal-chitra');
const ROOM = () => did('room-atlas');
const SCANNER = () => did('scanner-1');

// T0 is Monday 2026-02-02 15:30Z; the window is the next two working days.
const WINDOW = { start: '2026-02-03T06:00:00Z', end: '2026-02-05T00:00:00Z' };

interface Harness {
  cookie: string;
  client(key: string, trusted: boolean): Promise<AgoraClient>;
  send(from: AgoraClient, to: string, message: CarriedMessage): Promise<Response>;
  thread(id: string): Promise<SchedulingThreadView>;
}

async function start(options: { rateLimit?: { capacity: number; refillSeconds: number } } = {}): Promise<Harness> {
  r = relayApp();
  const fetch = (input: string, init?: RequestInit) => r.app.request(input, init);
  const errors: unknown[] = [];
  demo = await startOacopDemo({
    fetch,
    baseUrl: '',
    seed: SEED,
    now: () => r.clock.now(),
    store: r.temp.store,
    pollSeconds: 1,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    onError: (e) => errors.push(e),
  });
  const cookie = await sessionCookie(r.temp.store, 'did:key:z6MkConsoleReader', 'observer', r.clock.now());
  let n = 0;
  return {
    cookie,
    async client(key, trusted) {
      const identity = demoIdentity(SEED, `test-${key}`, key);
      // The demo agents trust this console's operators (web of trust, §6.2).
      if (trusted)
        await r.temp.store.access.putOperator({ did: identity.did, role: 'facilitator', createdAt: r.clock.now() });
      return new AgoraClient(
        identity,
        fetch,
        '',
        () => r.clock.now(),
        () => `${key}-${++n}`,
      );
    },
    async send(from, to, message) {
      const envelope = from.sign('REQUEST', carrierPayload(message, `req_${++n}`) as never, message.threadId, to);
      return r.post(envelope);
    },
    async thread(id) {
      const res = await r.get(`/api/scheduling/threads/${encodeURIComponent(id)}`, { cookie });
      expect(errors).toEqual([]);
      if (res.status !== 200) throw new Error(`GET thread ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { thread: SchedulingThreadView }).thread;
    },
  };
}

const proposal = (
  threadId: string,
  participants: string[],
  required: string[],
  duration = 'PT60M',
  extra: Partial<ProposeCollaboration> = {},
): ProposeCollaboration => ({
  type: 'ProposeCollaboration',
  threadId,
  revision: 1,
  object: { type: 'Event', title: 'Quarterly planning', duration, location: 'Room Atlas' },
  constraints: { timeWindow: WINDOW, participants, requiredParticipants: required },
  ...extra,
});

async function proposeToAll(h: Harness, from: AgoraClient, message: ProposeCollaboration): Promise<void> {
  for (const to of message.constraints!.participants!) expect((await h.send(from, to, message)).status).toBe(200);
}

const phases = (view: SchedulingThreadView) =>
  Object.fromEntries(view.participants.map((p) => [p.did, `${p.phase}@${p.revision}`]));
const inside = (slot: Slot, free: readonly { start: number; end: number }[]) => {
  const s = parseSlot(slot)!;
  return free.some((f) => f.start <= s.start && s.end <= f.end);
};

describe('OACoP scheduling through the relay with the demo agents', () => {
  it('proposes, collects answers inside the window, confirms the suggested slot (the room is booked), cancels: every participant moves to the new revision', async () => {
    const h = await start();
    const alice = await h.client('alice', true);
    const threadId = 'urn:uuid:0b6f2f0e-0000-4000-8000-000000000001';
    const participants = [ADA(), BRUNO(), CHITRA(), ROOM()];
    await proposeToAll(h, alice, proposal(threadId, participants, [ADA(), BRUNO(), ROOM()]));

    const answered = await until(
      () => h.thread(threadId),
      (v) => v.participants.every((p) => p.phase !== 'INVITED'),
      'four answers',
    );
    expect(answered.state).toMatchObject({ status: 'PROPOSED', revision: 1, initiator: alice.identity.did });
    const window = parseSlot(WINDOW)!;
    for (const p of answered.participants) {
      expect(p).toMatchObject({ phase: 'INTERESTED', revision: 1 });
      // §3.2: only slots inside the window; trusted initiator: the exact free time (§6.1).
      for (const slot of p.response!.slots) expect(inside(slot, [window])).toBe(true);
    }
    const adaCalendar = demoCalendar(SEED, DEMO_CALENDARS[0]!);
    const adaSlots = answered.participants.find((p) => p.did === ADA())!.response!.slots;
    // Exact: every free stretch of Ada's calendar in the window that holds the hour, no more, no less.
    const exact = subtractIntervals(window, adaCalendar.busy(window.start, window.end))
      .filter((f) => f.end - f.start >= 3_600_000)
      .map(toSlot);
    expect(adaSlots).toEqual(exact);
    expect(exact.length).toBeGreaterThan(0);

    const suggestion = answered.suggestion as unknown as { candidates: (Slot & { missingRequired: string[] })[] };
    expect(suggestion.candidates.length).toBeGreaterThan(0);
    const best = suggestion.candidates[0]!;
    expect(best.missingRequired).toEqual([]);
    const finalSlot = { start: best.start, end: best.end };

    // The initiator decides (§3.4.1): revision 2 to everyone, planned by the shared planner.
    const confirm = unwrap(planConfirmation(answered.state, finalSlot)).message;
    expect(confirm.revision).toBe(2);
    for (const to of participants) await h.send(alice, to, confirm);
    const confirmed = await until(
      () => h.thread(threadId),
      (v) => v.participants.every((p) => p.phase === 'CONFIRMED'),
      'four receipts',
    );
    expect(phases(confirmed)).toEqual(Object.fromEntries(participants.map((d) => [d, 'CONFIRMED@2'])));
    expect(confirmed.state).toMatchObject({ status: 'CONFIRMED', revision: 2, finalSlot });

    // A second console that planned its own Confirm from revision 1 asks before signing: who won, and when.
    await r.temp.store.access.setOperatorName(alice.identity.did, 'Alice');
    const standing = (revision: string, id = threadId) =>
      r.get(`/api/scheduling/threads/${encodeURIComponent(id)}/standing?revision=${revision}`, { cookie: h.cookie });
    const lost = await standing('1');
    expect(lost.status).toBe(409);
    const confirmedAt = confirmed.log.find((e) => e.type === 'ConfirmCollaboration' && e.outcome === 'applied')!.at;
    expect(await lost.json()).toEqual({
      code: 'CONFLICT',
      message: 'Alice already confirmed this.',
      details: { decision: 'confirmed', decidedBy: { did: alice.identity.did, name: 'Alice' }, decidedAt: confirmedAt },
    });
    expect(await (await standing('2')).json()).toEqual({ threadId, revision: 2, status: 'CONFIRMED' });
    expect((await standing('3')).status).toBe(400);
    expect((await standing('x')).status).toBe(400);
    expect((await standing('1', 'urn:uuid:nobody')).status).toBe(404);
    const slot = parseSlot(finalSlot)!;
    expect(await r.temp.store.oacop.listBookings(ROOM(), 0, Number.MAX_SAFE_INTEGER)).toEqual([
      expect.objectContaining({
        owner: ROOM(),
        threadId,
        start: slot.start,
        end: slot.end,
        revision: 2,
        title: 'Quarterly planning',
      }),
    ]);

    // §3.4.3: a response to revision 1 after the revision-2 Confirm is stale, for the read model as for any agent.
    const ada = new AgoraClient(
      oacopDemoIdentity(SEED, DEMO_CALENDARS[0]!),
      (i, init) => r.app.request(i, init),
      '',
      () => r.clock.now(),
      () => 'stale-1',
    );
    await h.send(ada, alice.identity.did, {
      type: 'ProposalResponse',
      threadId,
      respondingToRevision: 1,
      status: 'DECLINED',
    });
    const afterStale = await h.thread(threadId);
    expect(afterStale.log.at(-1)).toMatchObject({
      type: 'ProposalResponse',
      outcome: 'refused',
      error: { code: 'OACOP_STALE_REVISION' },
    });
    expect(afterStale.state.revision).toBe(2);

    // A replayed revision-2 confirm to an agent is answered with OACOP_STALE_REVISION (§3.4.2 lower/equal).
    await h.send(alice, BRUNO(), { ...confirm, finalSlot: { start: best.start, end: best.end }, revision: 2 });
    const refusedByBruno = await until(
      () => h.thread(threadId),
      (v) => v.participants.find((p) => p.did === BRUNO())?.lastError !== undefined,
      'Bruno refuses',
    );
    expect(refusedByBruno.participants.find((p) => p.did === BRUNO())!.lastError).toMatchObject({
      code: 'OACOP_STALE_REVISION',
      revision: 2,
    });

    const cancel = unwrap(planCancellation(confirmed.state, alice.identity.did, 'SICKNESS')).message;
    for (const to of participants) await h.send(alice, to, cancel);
    const cancelled = await until(
      () => h.thread(threadId),
      (v) => v.participants.every((p) => p.phase === 'CANCELLED'),
      'four cancel receipts',
    );
    expect(phases(cancelled)).toEqual(Object.fromEntries(participants.map((d) => [d, 'CANCELLED@3'])));
    expect(cancelled.state).toMatchObject({
      status: 'CANCELLED',
      revision: 3,
      reason: 'SICKNESS',
      cancelledBy: alice.identity.did,
    });
    expect(await r.temp.store.oacop.listBookings(ROOM(), 0, Number.MAX_SAFE_INTEGER)).toEqual([]);

    // The list, and a read model rebuilt from the stored envelopes alone (a restart) agrees.
    const list = (await (await r.get('/api/scheduling/threads', { cookie: h.cookie })).json()) as {
      threads: { threadId: string; status: string; revision: number }[];
    };
    expect(list.threads).toEqual([expect.objectContaining({ threadId, status: 'CANCELLED', revision: 3 })]);
    const rebuilt = new OacopReadModels(r.temp.store.relay);
    await rebuilt.catchUp();
    expect(rebuilt.scheduling.get(threadId)).toEqual(await h.thread(threadId));
    // Carriers ride outside the Agora thread machine: no Agora thread was opened for them.
    expect(await r.services.relay.store.getThread(threadId)).toBeUndefined();
  });

  it('a room slot taken meanwhile by another thread is OACOP_CONFLICT from the room; a constraint it cannot meet is OACOP_UNSUPPORTED_CONSTRAINT', async () => {
    const h = await start();
    const alice = await h.client('alice', true);
    const first = 'urn:uuid:0b6f2f0e-0000-4000-8000-00000000000a';
    const second = 'urn:uuid:0b6f2f0e-0000-4000-8000-00000000000b';
    for (const id of [first, second]) await proposeToAll(h, alice, proposal(id, [ROOM()], [ROOM()]));
    const views = await Promise.all(
      [first, second].map((id) =>
        until(
          () => h.thread(id),
          (v) => v.participants[0]!.phase === 'INTERESTED',
          'room answers',
        ),
      ),
    );
    const best = (views[0]!.suggestion as unknown as { candidates: Slot[] }).candidates[0]!;
    const slot = { start: best.start, end: best.end };
    await h.send(alice, ROOM(), unwrap(planConfirmation(views[0]!.state, slot)).message);
    await until(
      () => h.thread(first),
      (v) => v.participants[0]!.phase === 'CONFIRMED',
      'room confirms the first',
    );
    // The second thread's answers still offer that slot: the initiator may confirm it, the room refuses.
    await h.send(alice, ROOM(), unwrap(planConfirmation(views[1]!.state, slot)).message);
    const refused = await until(
      () => h.thread(second),
      (v) => v.participants[0]!.lastError !== undefined,
      'room refuses',
    );
    expect(refused.participants[0]).toMatchObject({
      phase: 'INTERESTED',
      revision: 2,
      lastError: { code: 'OACOP_CONFLICT', revision: 2 },
    });
    expect((await r.temp.store.oacop.listBookings(ROOM(), 0, Number.MAX_SAFE_INTEGER)).map((b) => b.threadId)).toEqual([
      first,
    ]);

    // A third proposal answered after the booking: the room's free time leaves the booking and its 15-minute cleaning gap out.
    const third = 'urn:uuid:0b6f2f0e-0000-4000-8000-00000000000c';
    await proposeToAll(h, alice, proposal(third, [ROOM()], [ROOM()]));
    const after = await until(
      () => h.thread(third),
      (v) => v.participants[0]!.phase === 'INTERESTED',
      'room answers again',
    );
    const booked = parseSlot(slot)!;
    const gap = 15 * 60_000;
    for (const offered of after.participants[0]!.response!.slots) {
      const o = parseSlot(offered)!;
      expect(o.end <= booked.start - gap || o.start >= booked.end + gap).toBe(true);
    }

    // §8.2 minDuration: the scanner takes nothing under an hour.
    const short = 'urn:uuid:0b6f2f0e-0000-4000-8000-00000000000d';
    await proposeToAll(h, alice, proposal(short, [SCANNER()], [SCANNER()], 'PT15M'));
    const scanner = await until(
      () => h.thread(short),
      (v) => v.participants[0]!.lastError !== undefined,
      'scanner refuses',
    );
    expect(scanner.participants[0]!.lastError).toMatchObject({ code: 'OACOP_UNSUPPORTED_CONSTRAINT' });
    expect(scanner.participants[0]!.phase).toBe('INVITED');
  });

  it('anti-spam and privacy: an unknown DID needs a valid burn (OACOP_PAYMENT_REQUIRED), then gets at most 3 fuzzy slots, and is rate limited', async () => {
    const h = await start({ rateLimit: { capacity: 4, refillSeconds: 3600 } });
    const mallory = await h.client('mallory', false);
    const noBurn = 'urn:uuid:0b6f2f0e-0000-4000-8000-000000000101';
    // No session and no burn: the agent refuses; the read model shows the thread with the refusal.
    await h.send(mallory, ADA(), proposal(noBurn, [ADA()], [ADA()]));
    const unpaid = await until(
      () => h.thread(noBurn),
      (v) => v.participants[0]!.lastError !== undefined,
      'payment required',
    );
    expect(unpaid.participants[0]!.lastError).toMatchObject({ code: 'OACOP_PAYMENT_REQUIRED' });

    // Burn 2 of its credits in the local ledger (a signed envelope), verifiable by txId and amount.
    await r.temp.store.oacop.credit(mallory.identity.did, '2', r.clock.now());
    const burnEnvelope = mallory.sign(
      'REQUEST',
      { request_id: 'burn_1', intent: 'oapp.burn', params: { amount: '2' } } as never,
      'burn_1',
    );
    const burned = await r.post(burnEnvelope, '/api/ledger/burns');
    expect(burned.status).toBe(201);
    const tx = (await burned.json()) as { txId: string; amount: string; burnedBy: string; usedFor: null };
    expect(tx).toMatchObject({
      txId: `oap:tx:${burnEnvelope.id}`,
      amount: '2',
      burnedBy: mallory.identity.did,
      usedFor: null,
    });
    expect(await (await r.get(`/api/ledger/burns/${encodeURIComponent(tx.txId)}`)).json()).toMatchObject({
      amount: '2',
    });

    const wrongAmount = 'urn:uuid:0b6f2f0e-0000-4000-8000-000000000102';
    await h.send(
      mallory,
      ADA(),
      proposal(wrongAmount, [ADA()], [ADA()], 'PT60M', { proofOfBurn: { txId: tx.txId, amount: '5' } }),
    );
    const mismatch = await until(
      () => h.thread(wrongAmount),
      (v) => v.participants[0]!.lastError !== undefined,
      'amount mismatch',
    );
    expect(mismatch.participants[0]!.lastError).toMatchObject({ code: 'OACOP_PAYMENT_REQUIRED' });

    const paid = 'urn:uuid:0b6f2f0e-0000-4000-8000-000000000103';
    await h.send(
      mallory,
      ADA(),
      proposal(paid, [ADA()], [ADA()], 'PT60M', { proofOfBurn: { txId: tx.txId, amount: '2' } }),
    );
    const fuzzy = await until(
      () => h.thread(paid),
      (v) => v.participants[0]!.phase !== 'INVITED',
      'fuzzy answer',
    );
    const slots = fuzzy.participants[0]!.response!.slots;
    expect(fuzzy.participants[0]!.phase).toBe('INTERESTED');
    expect(slots.length).toBeGreaterThan(0);
    expect(slots.length).toBeLessThanOrEqual(3); // §6.1.1
    const calendar = demoCalendar(SEED, DEMO_CALENDARS[0]!);
    for (const slot of slots) {
      const s = parseSlot(slot)!;
      expect(calendar.busy(s.start, s.end)).toEqual([]); // fuzzed inward only: never claims busy time
      expect(s.end - s.start).toBeGreaterThanOrEqual(60 * 60_000);
    }
    expect((await r.temp.store.oacop.getBurn(tx.txId))?.usedFor).toBe(paid);

    // The burn paid for that thread; another thread needs a new one. That was the 4th request: the bucket is empty.
    const reuse = 'urn:uuid:0b6f2f0e-0000-4000-8000-000000000104';
    await h.send(
      mallory,
      ADA(),
      proposal(reuse, [ADA()], [ADA()], 'PT60M', { proofOfBurn: { txId: tx.txId, amount: '2' } }),
    );
    const reused = await until(
      () => h.thread(reuse),
      (v) => v.participants[0]!.lastError !== undefined,
      'burn reused',
    );
    expect(reused.participants[0]!.lastError).toMatchObject({ code: 'OACOP_PAYMENT_REQUIRED' });
    const limited = 'urn:uuid:0b6f2f0e-0000-4000-8000-000000000105';
    await h.send(mallory, ADA(), proposal(limited, [ADA()], [ADA()]));
    const rate = await until(
      () => h.thread(limited),
      (v) => v.participants[0]!.lastError !== undefined,
      'rate limited',
    );
    expect(rate.participants[0]!.lastError).toMatchObject({ code: 'OACOP_RATE_LIMITED' });
  });

  it('an agent keeps its view of a thread across a restart: the confirmation after it is applied, not stale', async () => {
    const h = await start();
    const alice = await h.client('alice', true);
    const threadId = 'urn:uuid:0b6f2f0e-0000-4000-8000-000000000201';
    await proposeToAll(h, alice, proposal(threadId, [ADA()], [ADA()]));
    const answered = await until(
      () => h.thread(threadId),
      (v) => v.participants[0]!.phase === 'INTERESTED',
      'Ada answers',
    );
    await demo!.stop();
    r.clock.advance(1_000);
    demo = await startOacopDemo({
      fetch: (input, init) => r.app.request(input, init),
      baseUrl: '',
      seed: SEED,
      now: () => r.clock.now(),
      store: r.temp.store,
      pollSeconds: 1,
    });
    const best = (answered.suggestion as unknown as { candidates: Slot[] }).candidates[0]!;
    await h.send(alice, ADA(), unwrap(planConfirmation(answered.state, { start: best.start, end: best.end })).message);
    const confirmed = await until(
      () => h.thread(threadId),
      (v) => v.participants[0]!.phase === 'CONFIRMED',
      'Ada confirms after the restart',
    );
    expect(confirmed.participants[0]).toMatchObject({ phase: 'CONFIRMED', revision: 2 });
    expect(confirmed.participants[0]!.lastError).toBeUndefined();
  });

  it('the relay refuses a malformed OACoP message with a coded error and stores nothing; reads need a session', async () => {
    const h = await start();
    const alice = await h.client('alice', true);
    const head = await r.services.relay.store.headSeq();
    const bad = alice.sign(
      'REQUEST',
      {
        request_id: 'bad_1',
        intent: 'oacop.ProposeCollaboration',
        params: { type: 'ProposeCollaboration', threadId: 'urn:uuid:x', revision: 0, object: { type: 'Event' } },
      } as never,
      'urn:uuid:x',
      ADA(),
    );
    const res = await r.post(bad);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      ok: false,
      code: 'INVALID_REQUEST',
      details: { reason: 'oacop_invalid_message', oacopCode: 'OACOP_INVALID_MESSAGE' },
    });
    expect(await r.services.relay.store.headSeq()).toBe(head);
    expect((await r.get('/api/scheduling/threads')).status).toBe(401);
    expect((await r.get('/api/tasks')).status).toBe(401);
    expect((await r.get('/api/scheduling/threads/urn%3Auuid%3Anone', { cookie: h.cookie })).status).toBe(404);
  });
});
