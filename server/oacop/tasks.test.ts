// OACoP §4 tasks through the relay: AssignTask with deadline, parent and
// dependencies, TaskUpdate with status and progress, and the board at GET /api/tasks with the
// tree by parentTaskId and what blocks each task.
import { afterEach, describe, expect, it } from 'vitest';
import { carrierPayload, type CarriedMessage } from '@shared/oacop/carrier';
import type { AssignTask } from '@shared/oacop/messages';
import type { TaskBoard } from '@shared/oacop/task-projection';
import { AgoraClient } from '@agents/agora/agora-client';
import { demoIdentity } from '../demo/demo-identity';
import { DEMO_CALENDARS } from '../demo/oacop/demo-calendars';
import { oacopDemoIdentity, startOacopDemo, type OacopDemoHandle } from '../demo/oacop/oacop-demo';
import { relayApp, type RelayApp } from '../test-support/relay-app';
import { sessionCookie } from '../test-support/sessions';

let r: RelayApp;
let demo: OacopDemoHandle | undefined;
afterEach(async () => {
  await demo?.stop();
  demo = undefined;
  r.services.feed.close();
  await r.temp.dispose();
});

const PROJECT = 'urn:uuid:project-alpha';
const DRAFT = 'urn:uuid:task-draft';
const REVIEW = 'urn:uuid:task-review';

const assign = (threadId: string, title: string, extra: Partial<AssignTask['object']> = {}): AssignTask => ({
  type: 'AssignTask',
  threadId,
  object: { type: 'Task', title, ...extra },
  deadline: '2026-02-20T12:00:00Z',
});

describe('OACoP tasks through the relay', () => {
  it('builds the board and the tree; a task is blocked while a dependency is open; refusals are logged with their code', async () => {
    r = relayApp();
    const fetch = (input: string, init?: RequestInit) => r.app.request(input, init);
    let n = 0;
    const party = (key: string) =>
      new AgoraClient(
        demoIdentity(1, key, key),
        fetch,
        '',
        () => r.clock.now(),
        () => `${key}-${++n}`,
      );
    const manager = party('manager');
    const worker = party('worker');
    const cookie = await sessionCookie(r.temp.store, 'did:key:z6MkReader', 'observer', r.clock.now());
    const send = async (from: AgoraClient, to: AgoraClient, message: CarriedMessage) =>
      expect(
        (
          await r.post(
            from.sign('REQUEST', carrierPayload(message, `req_${++n}`) as never, message.threadId, to.identity.did),
          )
        ).status,
      ).toBe(200);
    const board = async () => (await (await r.get('/api/tasks', { cookie })).json()) as TaskBoard;

    await send(manager, worker, assign(PROJECT, 'Project Alpha'));
    await send(manager, worker, assign(DRAFT, 'Draft the report', { parentTaskId: PROJECT }));
    await send(manager, worker, assign(REVIEW, 'Review the report', { parentTaskId: PROJECT, dependencies: [DRAFT] }));

    let b = await board();
    expect(b.columns.ASSIGNED).toEqual([PROJECT, DRAFT, REVIEW]);
    expect(b.tree.map((node) => [node.task.threadId, node.children.map((c) => c.task.threadId)])).toEqual([
      [PROJECT, [DRAFT, REVIEW]],
    ]);
    expect(b.tasks.find((t) => t.threadId === REVIEW)).toMatchObject({
      blocked: true,
      blockedBy: [DRAFT],
      manager: manager.identity.did,
      worker: worker.identity.did,
      deadline: '2026-02-20T12:00:00Z',
    });

    // Only the worker reports (§4.2); the review cannot complete while the draft is open.
    await send(manager, worker, { type: 'TaskUpdate', threadId: DRAFT, status: 'ACCEPTED' });
    await send(worker, manager, { type: 'TaskUpdate', threadId: REVIEW, status: 'ACCEPTED' });
    await send(worker, manager, { type: 'TaskUpdate', threadId: REVIEW, status: 'COMPLETED', progress: 100 });
    b = await board();
    expect(b.log.filter((e) => e.outcome === 'refused').map((e) => [e.from, e.error?.code])).toEqual([
      [manager.identity.did, 'OACOP_NOT_AUTHORIZED'],
      [worker.identity.did, 'OACOP_INVALID_TRANSITION'],
    ]);
    expect(b.tasks.find((t) => t.threadId === REVIEW)).toMatchObject({ status: 'ACCEPTED', blocked: true });

    await send(worker, manager, { type: 'TaskUpdate', threadId: DRAFT, status: 'ACCEPTED' });
    await send(worker, manager, {
      type: 'TaskUpdate',
      threadId: DRAFT,
      status: 'IN_PROGRESS',
      progress: 40,
      comment: 'Draft started.',
    });
    b = await board();
    expect(b.tasks.find((t) => t.threadId === DRAFT)).toMatchObject({
      status: 'IN_PROGRESS',
      progress: 40,
      comment: 'Draft started.',
    });
    await send(worker, manager, { type: 'TaskUpdate', threadId: DRAFT, status: 'COMPLETED' });
    b = await board();
    expect(b.tasks.find((t) => t.threadId === DRAFT)).toMatchObject({ status: 'COMPLETED', progress: 100 });
    expect(b.tasks.find((t) => t.threadId === REVIEW)).toMatchObject({ blocked: false, blockedBy: [] });
    expect(b.columns).toMatchObject({ ASSIGNED: [PROJECT], ACCEPTED: [REVIEW], COMPLETED: [DRAFT] });
  });

  it('a demo calendar agent works its task, reports BLOCKED while a dependency held by another worker is open, then completes it', async () => {
    r = relayApp();
    const fetch = (input: string, init?: RequestInit) => r.app.request(input, init);
    demo = await startOacopDemo({
      fetch,
      baseUrl: '',
      seed: 7,
      now: () => r.clock.now(),
      store: r.temp.store,
      pollSeconds: 1,
    });
    let n = 0;
    const party = (key: string) =>
      new AgoraClient(
        demoIdentity(1, key, key),
        fetch,
        '',
        () => r.clock.now(),
        () => `${key}-${++n}`,
      );
    const manager = party('manager');
    const worker = party('worker');
    const ada = oacopDemoIdentity(7, DEMO_CALENDARS[0]!).did;
    const cookie = await sessionCookie(r.temp.store, 'did:key:z6MkReader', 'observer', r.clock.now());
    const send = async (from: AgoraClient, to: string, message: CarriedMessage) =>
      expect(
        (await r.post(from.sign('REQUEST', carrierPayload(message, `req_${++n}`) as never, message.threadId, to)))
          .status,
      ).toBe(200);
    const task = async (id: string) =>
      ((await (await r.get('/api/tasks', { cookie })).json()) as TaskBoard).tasks.find((t) => t.threadId === id);
    const until = async (id: string, status: string) => {
      for (let i = 0; i < 500; i++) {
        if ((await task(id))?.status === status) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`${id} never ${status}: ${JSON.stringify(await task(id))}`);
    };

    await send(manager, worker.identity.did, assign(DRAFT, 'Draft the report'));
    await send(manager, ada, assign(REVIEW, 'Review the report', { dependencies: [DRAFT] }));
    await until(REVIEW, 'BLOCKED');
    expect(await task(REVIEW)).toMatchObject({
      worker: ada,
      progress: 70,
      comment: `Waiting for ${DRAFT}.`,
      blockedBy: [DRAFT],
    });

    await send(worker, manager.identity.did, { type: 'TaskUpdate', threadId: DRAFT, status: 'ACCEPTED' });
    await send(worker, manager.identity.did, { type: 'TaskUpdate', threadId: DRAFT, status: 'COMPLETED' });
    await until(REVIEW, 'COMPLETED');
    const board = (await (await r.get('/api/tasks', { cookie })).json()) as TaskBoard;
    const fromAda = board.log
      .filter((e) => e.outcome === 'applied' && e.to === manager.identity.did && e.from === ada)
      .map((e) => e.seq);
    expect(fromAda.length).toBeGreaterThanOrEqual(6); // ACCEPTED, 30, 70, BLOCKED, IN_PROGRESS, COMPLETED
    expect(board.log.filter((e) => e.outcome === 'refused')).toEqual([]);
  });
});
