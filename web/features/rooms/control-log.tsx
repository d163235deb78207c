// Grants, revokes and rejects on rooms/{r}/control, each said in words.
import { Name } from '@web/components/name';
import { unnamedOperator } from '@shared/contract/operator-name';
import { LongText } from '@web/components/ui/long-text';
import { displayText } from '@web/lib/display-text';
import type { TimelineEntry } from '@web/lib/mqtt/timeline-merge';
import { usePreferences } from '@web/lib/preferences';
import { formatTime, fullTime } from './time-display';
import { useNow } from '@web/lib/use-now';
import { absolute } from '@web/lib/time-words';
import { useDisplayZone } from '@web/components/when';
import { rejectReasonInWords, revokeReasonInWords } from '@web/lib/room-words';
import { messageTypeWords } from '@shared/aor/message-type-words';
import { useTaskGoals } from '@web/lib/names/use-task-goals';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const s = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '?');

/** Who sent each candidate the console saw, by message id: a reject names only the message. */
export type CandidateSenders = ReadonlyMap<string, string>;

export function candidateSenders(entries: readonly TimelineEntry[]): CandidateSenders {
  const senders = new Map<string, string>();
  for (const e of entries)
    if (e.topicKind === 'public_candidates' && e.messageId && e.fromId) senders.set(e.messageId, e.fromId);
  return senders;
}

/** A task in a sentence (decisions-web.md §33): its goal in quotes when known, else "a task". */
export type TaskWords = (taskId: string) => string | undefined;
const taskIn = (taskId: unknown, words?: TaskWords): string => {
  const goal = typeof taskId === 'string' ? words?.(taskId) : undefined;
  return goal ? `“${goal}”` : 'a task';
};

/** A control message in words, with its tone; the timeline uses it too. Ids stay in the inspector. */
export function describeControl(
  entry: TimelineEntry,
  senders?: CandidateSenders,
  /** The zone a grant's end is written in (decisions-web §30); UTC unless given. */
  zone = 'UTC',
  /** Names tasks by their goals; without it a task is "a task". */
  taskWords?: TaskWords,
): { tone: 'grant' | 'revoke' | 'reject' | 'other'; text: string } {
  const env = isRecord(entry.envelope) ? entry.envelope : {};
  const p = isRecord(env.payload) ? env.payload : {};
  switch (env.type) {
    case 'mic_grant': {
      const types = Array.isArray(p.allowed_message_types)
        ? p.allowed_message_types.map((t) => messageTypeWords(typeof t === 'string' ? t : null)).join(', ')
        : '?';
      return {
        tone: 'grant',
        text: `Mic granted to ${s(p.agent_id)} for ${taskIn(p.task_id, taskWords)}: ${s(p.max_messages)} messages (${types}), until ${typeof p.expires_at === 'number' ? absolute(p.expires_at * 1000, zone) : '?'}`,
      };
    }
    case 'mic_revoke': {
      const reason = typeof p.reason === 'string' ? p.reason : null;
      const words = reason ? revokeReasonInWords(reason) : null;
      return {
        tone: 'revoke',
        text: `Mic revoked from ${s(p.agent_id)} for ${taskIn(p.task_id, taskWords)}${words ? `: ${words}` : ''}`,
      };
    }
    case 'reject': {
      const messageId = typeof p.message_id === 'string' ? p.message_id : null;
      const sender = messageId ? senders?.get(messageId) : undefined;
      // A sender_mismatch candidate names someone else: say who it claimed to be, not who sent it.
      // The message is named by its sender; its id is in the inspector (decisions-web.md §33).
      const what = sender
        ? p.reason === 'sender_mismatch'
          ? ` a message claiming to be from ${sender}`
          : ` ${sender}’s message`
        : ' a message';
      const detail = typeof p.detail === 'string' ? ` (${p.detail})` : '';
      return {
        tone: 'reject',
        text: `Rejected${what}${typeof p.task_id === 'string' ? ` for ${taskIn(p.task_id, taskWords)}` : ''}: ${rejectReasonInWords(s(p.reason))}${detail}`,
      };
    }
    default:
      return { tone: 'other', text: `${s(env.type)} on control` };
  }
}

/** The task and the message a control event is about, as data on its row (the text has names only). */
function subjectIds(entry: TimelineEntry): { taskId: string | undefined; messageId: string | undefined } {
  const env = isRecord(entry.envelope) ? entry.envelope : {};
  const p = isRecord(env.payload) ? env.payload : {};
  return {
    taskId: typeof p.task_id === 'string' ? p.task_id : undefined,
    messageId: typeof p.message_id === 'string' ? p.message_id : undefined,
  };
}

export const CONTROL_TONE = {
  grant: 'text-emerald-700 dark:text-emerald-300',
  revoke: 'text-amber-700 dark:text-amber-300',
  reject: 'text-rose-700 dark:text-rose-300',
  other: 'text-slate-600 dark:text-slate-400',
} as const;

export function ControlLog({
  roomId,
  entries,
  senders,
  onInspect,
}: {
  roomId: string;
  entries: readonly TimelineEntry[];
  senders?: CandidateSenders;
  onInspect: (entry: TimelineEntry) => void;
}) {
  const taskWords = useTaskGoals(roomId);
  const display = usePreferences((s) => s.timeDisplay);
  const now = useNow(display === 'relative' ? 5_000 : 60_000);
  const zone = useDisplayZone();
  return (
    <section
      aria-labelledby="control-heading"
      className="rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <h2
        id="control-heading"
        className="border-b border-slate-200 px-4 py-2 text-sm font-semibold dark:border-slate-800"
      >
        Control log <span className="font-normal text-slate-500">({entries.length})</span>
      </h2>
      {entries.length === 0 ? (
        <p className="px-4 py-4 text-sm text-slate-500 dark:text-slate-400">No grants, revokes or rejects yet.</p>
      ) : (
        <ol
          aria-label="Control events"
          className="max-h-72 divide-y divide-slate-100 overflow-y-auto dark:divide-slate-800"
        >
          {[...entries].reverse().map((entry) => {
            const d = describeControl(entry, senders, zone, taskWords);
            const about = subjectIds(entry);
            return (
              // On a phone the sentence takes a line of its own under the time, sender and button.
              <li
                key={entry.key}
                className="flex flex-wrap items-start gap-x-3 gap-y-0.5 px-4 py-1.5 text-sm"
                data-testid="control-event"
                data-task-id={about.taskId}
                data-about-message-id={about.messageId}
              >
                <time
                  dateTime={fullTime(entry.receivedAt)}
                  title={fullTime(entry.receivedAt)}
                  className="shrink-0 pt-0.5 font-mono text-xs text-slate-500"
                >
                  {formatTime(entry.receivedAt, display, now)}
                </time>
                <span className={`min-w-0 flex-1 max-sm:order-last max-sm:basis-full ${CONTROL_TONE[d.tone]}`}>
                  <LongText text={d.text} />
                </span>
                <span
                  className="max-w-40 shrink-0 truncate pt-0.5 font-mono text-xs text-slate-500 max-sm:ml-auto"
                  title={entry.fromId ?? undefined}
                >
                  {/* An operator who gave no name reads as "Operator …K7Qm2x" (decisions-web.md §46). */}
                  {entry.fromId?.startsWith('did:key:') ? (
                    <Name id={entry.fromId} plain fallback={unnamedOperator(entry.fromId)} />
                  ) : (
                    displayText(entry.fromId ?? '')
                  )}
                </span>
                <button
                  type="button"
                  onClick={() => onInspect(entry)}
                  className="shrink-0 rounded px-1.5 text-xs text-teal-700 hover:bg-slate-100 dark:text-teal-300 dark:hover:bg-slate-800"
                >
                  Inspect
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
