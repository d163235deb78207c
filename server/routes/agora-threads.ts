// Console reads over Agora threads: the thread list and one thread
// with every envelope, expired ones included (GET /events stops serving an envelope after its
// meta.ttl; the thread's record keeps it). Operator session required.
import { Hono } from 'hono';
import { expectedMessages } from '@shared/agora/thread-state';
import { AgoraThreadDetail, AgoraThreadList, AgoraThreadListQuery } from '@shared/contract/console';
import { CodedError } from '@shared/errors';
import { reply } from '../http/reply';
import { requireSession } from '../http/session';
import type { SessionDeps } from '../http/session';
import { formatCursor } from '../relay/cursor';
import type { RelayServices } from '../relay/relay-services';
import type { ThreadRecord } from '../store/relay-store';

const view = (thread: ThreadRecord) => ({
  id: thread.threadId,
  status: thread.state.status,
  state: thread.state,
  version: thread.version,
  openedAt: thread.openedAt,
  updatedAt: thread.updatedAt,
  deadlineAt: thread.deadlineAt,
  /** What may come next (shared/agora expectedMessages): drives the console's buttons. */
  expected: expectedMessages(thread.state),
});

export function agoraThreadRoutes(services: RelayServices, session: SessionDeps) {
  const store = services.relay.store;
  return new Hono()
    .use('*', requireSession(session))
    .get('/', async (c) => {
      const parsed = AgoraThreadListQuery.safeParse(c.req.query());
      if (!parsed.success)
        throw new CodedError(
          'INVALID_REQUEST',
          'party is a DID, status one of OPEN|PENDING|ACTIVE|COMPLETED|ERROR, limit 1–200.',
        );
      const { party, status, limit = 50 } = parsed.data;
      const threads = await store.listThreads({ ...(party ? { party } : {}), ...(status ? { status } : {}), limit });
      return reply(c, AgoraThreadList, { threads: threads.map(view) }, 200);
    })
    .get('/:id', async (c) => {
      const thread = await store.getThread(c.req.param('id'));
      if (!thread) throw new CodedError('NOT_FOUND', `No thread ${c.req.param('id').slice(0, 256)}.`);
      const events = await store.threadEvents(thread.threadId, 1000);
      return reply(
        c,
        AgoraThreadDetail,
        {
          thread: view(thread),
          events: events.map((e) => ({
            seq: e.seq,
            cursor: formatCursor(e.seq),
            receivedAt: e.receivedAt,
            envelope: JSON.parse(e.json) as unknown,
          })),
        },
        200,
      );
    });
}
