// The guided demo: three steps a facilitator runs in front of an audience, one
// per protocol, each with its story in plain words and a link to its own screen.
// 1. AOR: a task for a demo agent in the demo room (grant, ack, progress, result), published
//    from this browser like the room screen's task form; the demo agents answer on their own.
// 2. RFC 0002: the demo seller offers the operator a price (POST /api/demo/negotiation); the
//    operator counters and co-signs, signing in this browser (the moves are composed in by
//    web/app), and the agreement is logged (docs/decisions-demo.md §13).
// 3. OACoP: a meeting with a demo person and the meeting room, signed here; book the best slot.
// "Start over" begins a new run with new ids; nothing earlier is deleted.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { directoryQuery } from '@web/lib/api/agora-agents';
import { startDemoNegotiation } from '@web/lib/api/demo-negotiation';
import { negotiationQuery } from '@web/lib/api/negotiation-get';
import { roomQuery } from '@web/lib/api/rooms-get';
import { pendingReviewQuery } from '@web/lib/api/rooms-review';
import { endReview } from '@web/lib/api/rooms-review-end';
import { schedulingThreadQuery } from '@web/lib/api/scheduling-thread';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { assignTask, newTaskId } from '@web/lib/mqtt/publish';
import { openRoom } from '@web/lib/mqtt/room-connection';
import { useLiveRooms, useRoomLive } from '@web/lib/mqtt/room-store';
import { addDemoNames } from '@web/lib/names/name-cache';
import { oacopAgents } from '@web/lib/oacop/oacop-directory';
import { sendCarriers } from '@web/lib/oacop/send-carriers';
import { usePresenter } from '@web/lib/presenter';
import { roomStory } from '@web/lib/story/room-story';
import type { ReactNode } from 'react';
import { useEffect, useMemo } from 'react';
import { guidedMeeting } from './guided-meeting';
import { useGuidedRun } from './guided-run';
import { BookMeeting } from './meeting-step';
import { NegotiationStory, RoomStory, SchedulingStory } from './story-panels';

/** The room the server's demo creates (server/demo/demo-config.ts DEMO_ROOM); its agents live there. */
export const DEMO_ROOM_ID = 'demo';
const TASK_AGENT = 'agent.researcher';
const TASK_GOAL = 'Compare three weather APIs for our demo and recommend one';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function Step({
  n,
  title,
  protocol,
  done,
  children,
}: {
  n: number;
  title: string;
  protocol: string;
  done: boolean;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`step-${n}`}
      data-testid={`step-${n}`}
      data-done={done}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 id={`step-${n}`} className="text-lg font-semibold">
          {n}. {title}
        </h2>
        <span className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
          {protocol}
        </span>
        {done ? (
          <span
            data-testid="step-done"
            className="ml-auto rounded-full bg-emerald-100 px-2.5 py-0.5 text-sm font-medium text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100"
          >
            Done
          </span>
        ) : null}
      </div>
      {children}
    </section>
  );
}

function TaskStep() {
  const run = useGuidedRun((s) => s.run);
  const update = useGuidedRun((s) => s.update);
  const session = useSession();
  const room = useQuery(roomQuery(DEMO_ROOM_ID));
  const status = useLiveRooms((s) => s.status);
  const live = useRoomLive(DEMO_ROOM_ID);
  const task = run.task;
  const queryClient = useQueryClient();
  // Review mode on in the demo room (README step 4) holds every message of the Researcher for a
  // facilitator: the step says so and offers the fix, rather than stalling (decisions-web.md §39).
  const review = room.data?.moderation === 'review';
  const waiting = useQuery({ ...pendingReviewQuery(DEMO_ROOM_ID), enabled: review });
  const unblock = useMutation({
    mutationFn: () => endReview(DEMO_ROOM_ID, { decision: 'approve' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: roomQuery(DEMO_ROOM_ID).queryKey }),
  });
  // The room's live connection, open while this step is shown: publishing needs it.
  useEffect(() => (room.isSuccess ? openRoom(DEMO_ROOM_ID) : undefined), [room.isSuccess]);
  const done = useMemo(
    () => !!task && roomStory(live.timeline.entries, { taskId: task.taskId }).some((l) => l.tone === 'milestone'),
    [live.timeline.entries, task],
  );
  const assign = useMutation({
    mutationFn: async () => {
      if (!session) throw new Error('Sign in first.');
      const taskId = newTaskId();
      const now = Math.floor(Date.now() / 1000);
      await assignTask(DEMO_ROOM_ID, session.did, {
        agentId: TASK_AGENT,
        taskId,
        goal: TASK_GOAL,
        format: 'short summary',
        deadline: now + 180,
        allowedTypes: ['ack', 'progress', 'finding', 'risk', 'clarifying_question', 'result'],
        maxMessages: 6,
        expiresAt: now + 180,
      });
      update({ task: { roomId: DEMO_ROOM_ID, agentId: TASK_AGENT, taskId } });
    },
  });
  return (
    <Step n={1} title="A task for an agent, under moderation" protocol="AOR rooms" done={done}>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        You give the Researcher the mic for six messages and three minutes, then a task. It acknowledges, reports
        progress and findings, and delivers a result; the gateway checks every message against the grant.
      </p>
      {review ? (
        <div data-testid="demo-blocked-review">
          <Notice
            tone="warn"
            title="Review mode is on in the Demo room"
            action={
              session?.role === 'facilitator' ? (
                <Button variant="primary" size="sm" busy={unblock.isPending} onClick={() => unblock.mutate()}>
                  {waiting.data?.length
                    ? `Approve the ${waiting.data.length} waiting and turn review mode off`
                    : 'Turn review mode off for the demo'}
                </Button>
              ) : undefined
            }
          >
            Each of the Researcher’s messages waits for a facilitator’s approval, so this step only moves on as they are
            approved
            {waiting.data?.length ? ` (${waiting.data.length} waiting now, in the room’s review queue)` : ''}. Turn
            review mode off to let the gateway’s rules alone decide, or approve them in the room.
          </Notice>
          {unblock.isError ? (
            <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
              {errorText(unblock.error)}
            </p>
          ) : null}
        </div>
      ) : null}
      {room.isError ? (
        <Notice tone="warn" title="There is no demo room on this server">
          Start the server with DEMO=1 (the default) so the demo agents and their room exist.
        </Notice>
      ) : task ? (
        <>
          <RoomStory roomId={DEMO_ROOM_ID} taskId={task.taskId} />
          <Link
            to="/rooms/$roomId"
            params={{ roomId: DEMO_ROOM_ID }}
            className="text-sm font-medium text-teal-700 underline-offset-2 hover:underline dark:text-teal-300"
          >
            Open the room
          </Link>
        </>
      ) : (
        <>
          <Button
            variant="primary"
            busy={assign.isPending}
            disabled={status !== 'live'}
            onClick={() => assign.mutate()}
          >
            {status === 'live' ? 'Give the Researcher a task' : 'Connecting to the room…'}
          </Button>
        </>
      )}
      {assign.isError ? (
        <Notice tone="error" title="The task was not sent">
          {errorText(assign.error)}
        </Notice>
      ) : null}
    </Step>
  );
}

/** The operator's moves in a negotiation (features/negotiations), composed in by web/app. */
export type NegotiationMoves = (negotiationId: string) => ReactNode;

function NegotiationStep({ moves }: { moves: NegotiationMoves | undefined }) {
  const negotiation = useGuidedRun((s) => s.run.negotiation);
  const update = useGuidedRun((s) => s.update);
  const detail = useQuery({ ...negotiationQuery(negotiation?.id ?? ''), enabled: !!negotiation });
  // Done once both have signed: the seller on accepting, the operator's co-signature after.
  const done =
    detail.data?.negotiation.state === 'ACCEPTED' &&
    detail.data.log !== null &&
    detail.data.history.some((h) => (h as { type?: unknown }).type === 'cosign');
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: startDemoNegotiation,
    onSuccess: (started) => {
      addDemoNames(queryClient, started.names);
      update({ negotiation: { id: started.negotiation_id, names: started.names } });
    },
  });
  return (
    <Step n={2} title="A price, negotiated and co-signed by you" protocol="RFC 0002 negotiation" done={done}>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        A demo agent, Acme Weather API, offers you its forecasts at a price. You counter, signing in this browser with
        your key; it accepts a price within its limits, and you co-sign the agreement. The agreement lands in the public
        transparency log.
      </p>
      {negotiation ? (
        <>
          <NegotiationStory id={negotiation.id} names={negotiation.names} />
          {moves?.(negotiation.id)}
          <Link
            to="/negotiations/$negotiationId"
            params={{ negotiationId: negotiation.id }}
            className="text-sm font-medium text-teal-700 underline-offset-2 hover:underline dark:text-teal-300"
          >
            Open the negotiation
          </Link>
        </>
      ) : (
        <Button variant="primary" busy={start.isPending} onClick={() => start.mutate()}>
          Ask Acme Weather API for an offer
        </Button>
      )}
      {start.isError ? (
        <Notice tone="error" title="The negotiation did not start">
          {errorText(start.error)}
        </Notice>
      ) : null}
    </Step>
  );
}

function MeetingStep() {
  const meeting = useGuidedRun((s) => s.run.meeting);
  const update = useGuidedRun((s) => s.update);
  const directory = useQuery(directoryQuery);
  const thread = useQuery({ ...schedulingThreadQuery(meeting?.threadId ?? ''), enabled: !!meeting });
  const done = thread.data?.state.status === 'CONFIRMED';
  const propose = useMutation({
    mutationFn: async () => {
      const threadId = `urn:uuid:${crypto.randomUUID()}`;
      const built = guidedMeeting(oacopAgents(directory.data ?? []), threadId, Date.now());
      if (!built.ok) throw new Error(built.error.message);
      await sendCarriers(built.value.message, built.value.message.constraints?.participants ?? []);
      update({ meeting: { threadId } });
    },
  });
  return (
    <Step n={3} title="A meeting, booked with a room" protocol="OACoP scheduling" done={done}>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        You propose half an hour with Ada (Berlin) and Room Atlas over the next two weekdays. Both answer with their
        free time; you book the best slot, and the room is reserved.
      </p>
      {meeting ? (
        <>
          <SchedulingStory threadId={meeting.threadId} />
          <BookMeeting threadId={meeting.threadId} />
          <Link
            to="/scheduling/$threadId"
            params={{ threadId: meeting.threadId }}
            className="text-sm font-medium text-teal-700 underline-offset-2 hover:underline dark:text-teal-300"
          >
            Open the scheduling thread
          </Link>
        </>
      ) : (
        <Button
          variant="primary"
          busy={propose.isPending}
          disabled={directory.isPending}
          onClick={() => propose.mutate()}
        >
          Propose the meeting
        </Button>
      )}
      {propose.isError ? (
        <Notice tone="error" title="The proposal was not sent">
          {errorText(propose.error)}
        </Notice>
      ) : null}
    </Step>
  );
}

export function DemoPage({ negotiationMoves }: { negotiationMoves?: NegotiationMoves } = {}) {
  const session = useSession();
  const presenter = usePresenter((s) => s.on);
  const togglePresenter = usePresenter((s) => s.toggle);
  const startOver = useGuidedRun((s) => s.startOver);
  const runId = useGuidedRun((s) => s.run.id);
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <header className="flex flex-wrap items-start gap-4">
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-semibold tracking-tight">Guided demo</h1>
          <p className="mt-1 text-slate-600 dark:text-slate-400">
            Three steps, one per protocol, each told in plain words. Press P for presenter mode.
          </p>
        </div>
        <Button aria-pressed={presenter} onClick={togglePresenter}>
          {presenter ? 'Leave presenter mode' : 'Presenter mode'}
        </Button>
        <Button onClick={startOver}>Start over</Button>
      </header>
      {!canAct(session) ? (
        <Notice tone="info" title="Only a facilitator can run the guided demo">
          Ask a facilitator for an invite (npm run cli -- operators invite --role facilitator), or watch the demo room
          live.
        </Notice>
      ) : (
        <div key={runId} className="space-y-6">
          <TaskStep />
          <NegotiationStep moves={negotiationMoves} />
          <MeetingStep />
        </div>
      )}
    </div>
  );
}
