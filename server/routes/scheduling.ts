// Console reads over OACoP: scheduling threads with each participant's
// state and revision and the suggested slot, and the task board with its tree and blocked-by
// lists. Both are read models over the relay's stored envelopes (server/oacop/oacop-read-models.ts).
// Operator session required. The API contract is in server/README.md.
import { Hono } from 'hono';
import {
  SchedulingThreadAnswer,
  SchedulingThreadList,
  TaskBoardAnswer,
  ThreadStanding,
  ThreadStandingQuery,
} from '@shared/contract/console';
import { CodedError } from '@shared/errors';
import type { SchedulingThreadView } from '@shared/oacop/scheduling-projection';
import { decisionSince } from '@shared/oacop/thread-decision';
import { decidedConflict } from '../auth/decided-conflict';
import { reply } from '../http/reply';
import { requireSession, type SessionDeps } from '../http/session';
import type { OacopReadModels } from '../oacop/oacop-read-models';

/** The list's row: enough for a thread list without the log. */
const summary = (view: SchedulingThreadView) => {
  const { state } = view;
  const best = view.suggestion && 'candidates' in view.suggestion ? (view.suggestion.candidates[0] ?? null) : null;
  return {
    threadId: view.threadId,
    status: state.status,
    revision: state.revision,
    initiator: state.initiator,
    title: state.object.title ?? null,
    duration: state.object.duration ?? null,
    timeWindow: state.constraints.timeWindow ?? null,
    finalSlot: 'finalSlot' in state ? (state.finalSlot ?? null) : null,
    participants: view.participants.map(({ did, required, phase, revision }) => ({ did, required, phase, revision })),
    bestSlot: best,
    openedAt: view.openedAt,
    updatedAt: view.updatedAt,
  };
};

export function schedulingRoutes(models: OacopReadModels, session: SessionDeps) {
  return (
    new Hono()
      .use('*', requireSession(session))
      .get('/threads', async (c) => {
        await models.catchUp();
        return reply(c, SchedulingThreadList, { threads: models.scheduling.list().map(summary) }, 200);
      })
      .get('/threads/:id', async (c) => {
        await models.catchUp();
        const id = c.req.param('id');
        const view = models.scheduling.get(id);
        if (!view) throw new CodedError('NOT_FOUND', `No scheduling thread ${id.slice(0, 256)}.`);
        return reply(c, SchedulingThreadAnswer, { thread: view }, 200);
      })
      // Confirms and cancels are signed in the browser and posted to the relay, which takes them in
      // order; the read model then refuses the later one. Asked just before signing, this says who
      // got there first while the console can still say so (decisions-server.md §57).
      .get('/threads/:id/standing', async (c) => {
        const query = ThreadStandingQuery.safeParse({ revision: c.req.query('revision') });
        if (!query.success) throw new CodedError('INVALID_REQUEST', 'revision must be a whole number.');
        const revision = Number(query.data.revision);
        await models.catchUp();
        const id = c.req.param('id');
        const view = models.scheduling.get(id);
        if (!view) throw new CodedError('NOT_FOUND', `No scheduling thread ${id.slice(0, 256)}.`);
        if (revision > view.state.revision)
          throw new CodedError(
            'INVALID_REQUEST',
            `The thread is at revision ${view.state.revision}, not ${revision} yet.`,
          );
        const decided = decisionSince(view, revision);
        if (decided) throw await decidedConflict(session.store, decided.decision, decided.by, decided.at);
        // Moved on by a message this instance's log does not hold (a thread first seen at a later revision).
        if (revision < view.state.revision) throw await decidedConflict(session.store, 'revised', null, null);
        return reply(c, ThreadStanding, { threadId: id, revision, status: view.state.status }, 200);
      })
  );
}

export function taskRoutes(models: OacopReadModels, session: SessionDeps) {
  return new Hono().use('*', requireSession(session)).get('/', async (c) => {
    await models.catchUp();
    return reply(c, TaskBoardAnswer, models.tasks.board(), 200);
  });
}
