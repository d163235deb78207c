// One timeline row's content. Memoized: scrolling the virtualized list, a live burst arriving
// or a toolbar change re-renders the timeline, and without this every row in view re-rendered
// with it (profiled as most of the scripting time while scrolling). A row renders again only
// when its entry (it gains a cursor) or its shown time changes.
import { Name } from '@web/components/name';
import { LongText } from '@web/components/ui/long-text';
import { displayText } from '@web/lib/display-text';
import { unnamedOperator } from '@shared/contract/operator-name';
import type { TimelineEntry } from '@web/lib/mqtt/timeline-merge';
import { memo } from 'react';
import { CONTROL_TONE, describeControl } from './control-log';
import { MessageContent, TypeBadge, summarize } from './message-content';
import { fullTime } from './time-display';
import { Term } from '@web/components/term';
import { useDisplayZone } from '@web/components/when';
import { controlKindInWords } from '@web/lib/room-words';
import { TaskName } from '@web/components/task-name';
import { useTaskGoals } from '@web/lib/names/use-task-goals';

const controlReason = (envelope: unknown): unknown =>
  typeof envelope === 'object' && envelope !== null && 'payload' in envelope
    ? ((envelope as { payload?: { reason?: unknown } }).payload?.reason ?? null)
    : null;

/** The protocol's words, for the tooltip: "reject (facilitator_rejected) on control". */
const controlTerm = (envelope: unknown, type: string | null): string => {
  const reason = controlReason(envelope);
  return `${type ?? 'unknown'}${typeof reason === 'string' ? ` (${reason})` : ''} on control`;
};

export const senderLabel = (fromId: string | null) =>
  fromId?.startsWith('did:key:') ? unnamedOperator(fromId) : displayText(fromId ?? 'unknown sender');

export const TimelineRow = memo(function TimelineRow({
  roomId,
  entry,
  time,
  onInspect,
  onReply,
}: {
  roomId: string;
  entry: TimelineEntry;
  time: string;
  onInspect: (entry: TimelineEntry) => void;
  onReply?: ((agentId: string) => void) | undefined;
}) {
  const control = entry.topicKind === 'control';
  const { messageType, taskId } = summarize(entry.envelope);
  const zone = useDisplayZone();
  const taskWords = useTaskGoals(roomId);
  const described = control ? describeControl(entry, undefined, zone, taskWords) : null;
  return (
    <>
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="font-medium text-slate-800 dark:text-slate-200" title={entry.fromId ?? undefined}>
          {/* An operator writes as its did:key: named as the live screens name it (decisions-web.md §29). */}
          {entry.fromId?.startsWith('did:key:') ? (
            <Name id={entry.fromId} plain fallback={unnamedOperator(entry.fromId)} />
          ) : (
            senderLabel(entry.fromId)
          )}
        </span>
        {control ? (
          <span className="rounded bg-slate-100 px-1 dark:bg-slate-800" data-testid="control-kind">
            <Term
              words={controlKindInWords(messageType, controlReason(entry.envelope))}
              term={controlTerm(entry.envelope, messageType)}
            />
          </span>
        ) : (
          <TypeBadge type={messageType} />
        )}
        {taskId && !control ? <TaskName roomId={roomId} taskId={taskId} className="min-w-0 truncate" /> : null}
        <time dateTime={fullTime(entry.receivedAt)} title={fullTime(entry.receivedAt)} className="ml-auto">
          {time}
        </time>
        <button
          type="button"
          onClick={() => onInspect(entry)}
          className="rounded px-1.5 py-0.5 text-teal-700 hover:bg-slate-100 dark:text-teal-300 dark:hover:bg-slate-800"
          aria-label={`Inspect message ${entry.messageId ?? ''} from ${entry.fromId ?? 'unknown'}`}
        >
          Inspect
        </button>
        {/* AOR §6.2: "User replies with say"; the reply mentions the asker. */}
        {onReply && messageType === 'clarifying_question' && entry.fromId && !control ? (
          <button
            type="button"
            onClick={() => onReply(entry.fromId!)}
            className="rounded px-1.5 py-0.5 font-medium text-violet-700 hover:bg-slate-100 dark:text-violet-300 dark:hover:bg-slate-800"
            aria-label={`Reply to ${entry.fromId}’s question`}
          >
            Reply
          </button>
        ) : null}
      </div>
      <div className="mt-1">
        {described ? (
          <p className={`text-sm ${CONTROL_TONE[described.tone]}`}>
            <LongText text={described.text} />
          </p>
        ) : (
          <MessageContent envelope={entry.envelope} raw={entry.raw} />
        )}
      </div>
    </>
  );
});
