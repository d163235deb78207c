// Slot approvals against a stranger (decisions-server.md §75, §76), on the real server: real Agora
// envelopes through the relay, SQLite, the inbox over HTTP. A thread reaches the inbox only when one
// of this server's parties is in it; one initiator gets a bounded number of items; an envelope makes
// the inbox look at its own thread, never at every thread; a facilitator can dismiss any item, for
// good across a restart, audited.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgoraClient } from '@agents/agora/agora-client';
import { InboxList, type InboxItem } from '@shared/contract/inbox';
import { carrierPayload, type CarriedMessage } from '@shared/oacop/carrier';
import { SchedulingProjection } from '@shared/oacop/scheduling-projection';
import { loadConfig } from '../config';
import { demoIdentity } from '../demo/demo-identity';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { sessionCookie } from '../test-support/sessions';
import { SLOT_ITEMS_PER_SENDER } from './slot-source';

let sb: RunningSwitchboard;
let dataDir: string;
let cookie: string;
const FACILITATOR = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';
const boot = () => startSwitchboard(loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0' }));
const dismiss = (itemId: string, as = cookie) =>
  fetch(`${sb.url}/api/inbox/dismissals`, {
    method: 'POST',
    headers: { cookie: as, origin: sb.url, 'content-type': 'application/json' },
    body: JSON.stringify({ itemId }),
  });
let n = 0;

const client = (key: string) =>
  new AgoraClient(
    demoIdentity(11, `slot-${key}`, key),
    fetch,
    sb.url,
    () => Date.now(),
    () => `${key}-${++n}`,
  );

const send = (from: AgoraClient, to: AgoraClient, message: CarriedMessage) =>
  from.post(from.sign('REQUEST', carrierPayload(message, `req_${++n}`) as never, message.threadId, to.identity.did));

/** A thread `initiator` opens with `participant`, who answers it: its slot then waits for approval. */
async function answeredThread(initiator: AgoraClient, participant: AgoraClient, threadId: string): Promise<void> {
  await send(initiator, participant, {
    type: 'ProposeCollaboration',
    threadId,
    revision: 1,
    object: { type: 'Event', title: `Meeting ${threadId.slice(-4)}`, duration: 'PT30M' },
    constraints: {
      timeWindow: { start: '2026-12-01T08:00:00Z', end: '2026-12-03T18:00:00Z' },
      participants: [participant.identity.did],
      requiredParticipants: [participant.identity.did],
    },
  });
  await send(participant, initiator, {
    type: 'ProposalResponse',
    threadId,
    respondingToRevision: 1,
    status: 'INTERESTED',
    availableSlots: [{ start: '2026-12-01T09:00:00Z', end: '2026-12-01T12:00:00Z' }],
  });
}

const thread = (i: number, tag: number) =>
  `urn:uuid:0b6f2f0e-0000-4000-8${tag.toString().padStart(3, '0')}-${i.toString(16).padStart(12, '0')}`;

async function slots(): Promise<InboxItem[]> {
  const res = await fetch(`${sb.url}/api/inbox`, { headers: { cookie } });
  return InboxList.parse(await res.json()).items.filter((i) => i.kind === 'slot');
}

async function slotsUntil(done: (items: InboxItem[]) => boolean): Promise<InboxItem[]> {
  for (;;) {
    const items = await slots();
    if (done(items)) return items;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-slots-'));
  sb = await boot();
  cookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
});

afterAll(async () => {
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('slot approvals from strangers', () => {
  it("never come from a thread between two keys a stranger made; a thread with this server's operator in it does", async () => {
    const stranger = client('stranger');
    const accomplice = client('accomplice');
    const operator = client('operator');
    await sb.store.access.putOperator({ did: operator.identity.did, role: 'observer', createdAt: Date.now() });
    await answeredThread(stranger, accomplice, thread(1, 1));
    // Stored after the stranger's: once its item is in, the stranger's had its chance.
    await answeredThread(stranger, operator, thread(2, 1));
    const items = await slotsUntil((items) => items.some((i) => i.id === `slot:${thread(2, 1)}`));
    expect(items.map((i) => i.id)).not.toContain(`slot:${thread(1, 1)}`);
  });

  it('give one initiator at most SLOT_ITEMS_PER_SENDER items, whoever it invites', async () => {
    const initiator = client('prolific');
    const operator = client('operator-2');
    await sb.store.access.putOperator({ did: operator.identity.did, role: 'observer', createdAt: Date.now() });
    for (let i = 0; i < SLOT_ITEMS_PER_SENDER + 5; i++) await answeredThread(initiator, operator, thread(i, 2));
    // Another initiator's thread, stored last: once it is in, every earlier one was looked at.
    await answeredThread(client('another'), operator, thread(99, 2));
    const items = await slotsUntil((items) => items.some((i) => i.id === `slot:${thread(99, 2)}`));
    const prolific = items.filter((i) => i.id.includes('-8002-') && i.id !== `slot:${thread(99, 2)}`);
    expect(prolific).toHaveLength(SLOT_ITEMS_PER_SENDER);
  });

  it('look at the thread an envelope belongs to, never at every thread', async () => {
    const operator = client('operator-3');
    await sb.store.access.putOperator({ did: operator.identity.did, role: 'observer', createdAt: Date.now() });
    const list = vi.spyOn(SchedulingProjection.prototype, 'list');
    const get = vi.spyOn(SchedulingProjection.prototype, 'get');
    try {
      await answeredThread(client('one-more'), operator, thread(1, 3));
      await slotsUntil((items) => items.some((i) => i.id === `slot:${thread(1, 3)}`));
      expect(list).not.toHaveBeenCalled();
      expect(new Set(get.mock.calls.map(([id]) => id))).toEqual(new Set([thread(1, 3)]));
    } finally {
      list.mockRestore();
      get.mockRestore();
    }
  });

  it('leave every inbox when a facilitator dismisses them, audited, and stay dismissed after a restart', async () => {
    const operator = client('operator-4');
    await sb.store.access.putOperator({ did: operator.identity.did, role: 'observer', createdAt: Date.now() });
    await answeredThread(client('pest'), operator, thread(1, 4));
    const id = `slot:${thread(1, 4)}`;
    await slotsUntil((items) => items.some((i) => i.id === id));
    const observer = await sessionCookie(
      sb.store,
      'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG',
      'observer',
    );
    expect((await dismiss(id, observer)).status).toBe(403);
    expect((await dismiss(id)).status).toBe(204);
    expect((await slots()).map((i) => i.id)).not.toContain(id);
    // Gone already: nothing left to dismiss, not an error.
    expect((await dismiss(id)).status).toBe(204);
    expect((await dismiss('')).status).toBe(400);
    const [entry] = await sb.store.access.listAudit({ limit: 1 });
    expect(entry).toMatchObject({
      actorDid: FACILITATOR,
      action: 'inbox.dismiss',
      details: { itemId: id, kind: 'slot' },
    });

    await sb.close();
    sb = await boot();
    cookie = await sessionCookie(sb.store, FACILITATOR, 'facilitator');
    // Another thread of the same kind is back after the restart; the dismissed one is not.
    const items = await slotsUntil((items) => items.some((i) => i.id === `slot:${thread(1, 3)}`));
    expect(items.map((i) => i.id)).not.toContain(id);
  });
});
