// Agent-written content, always as text: React escapes strings, and nothing here sets HTML.
// Links are made only from http(s) URLs, show their host, and open without an opener/referrer.
// Long values collapse behind "Show all" (decisions-web.md §25).
import { LongText } from '@web/components/ui/long-text';
import { safeLinkHost } from '@web/lib/room-words';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export interface MessageSummary {
  readonly messageType: string | null;
  readonly taskId: string | null;
}

/** The result's message_type and task, or the envelope type for anything else. */
export function summarize(envelope: unknown): MessageSummary {
  if (!isRecord(envelope)) return { messageType: null, taskId: null };
  const payload = isRecord(envelope.payload) ? envelope.payload : {};
  return { messageType: str(payload.message_type) ?? str(envelope.type), taskId: str(payload.task_id) };
}

/** One line of plain text for announcements. */
export function plainText(envelope: unknown): string {
  if (!isRecord(envelope) || !isRecord(envelope.payload)) return '(not an envelope)';
  const p = envelope.payload;
  const c = isRecord(p.content) ? p.content : p;
  return (
    str(c.text) ??
    str(c.question) ??
    (Array.isArray(c.bullets) ? c.bullets.filter((b) => typeof b === 'string').join('; ') : null) ??
    str(c.label) ??
    str(c.url) ??
    ''
  );
}

export function MessageContent({ envelope, raw }: { envelope: unknown; raw: string }) {
  if (!isRecord(envelope) || !isRecord(envelope.payload)) {
    return (
      <p className="font-mono text-xs break-all text-rose-700 dark:text-rose-300">
        Not an AOR envelope: {raw.slice(0, 300)}
      </p>
    );
  }
  const payload = envelope.payload;
  const content = isRecord(payload.content) ? payload.content : null;
  if (str(payload.message_type) === 'artifact_link' && content) {
    const url = str(content.url);
    const host = safeLinkHost(url);
    const label = str(content.label);
    if (!url || !host) {
      return (
        <p className="text-sm">
          <span className="rounded bg-rose-100 px-1.5 py-0.5 text-xs font-medium text-rose-800 dark:bg-rose-950 dark:text-rose-200">
            Link blocked
          </span>{' '}
          <span className="break-all font-mono text-xs">{String(url ?? '(no url)').slice(0, 200)}</span> is not an
          http(s) address.
        </p>
      );
    }
    return (
      <p className="text-sm">
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          className="text-teal-700 underline underline-offset-2 dark:text-teal-300"
        >
          <LongText text={label ?? url} />
        </a>{' '}
        <span className="text-xs text-slate-500 dark:text-slate-400">({host})</span>
      </p>
    );
  }
  if (content && Array.isArray(content.bullets)) {
    return (
      <ul className="list-disc pl-5 text-sm">
        {content.bullets.map((b, i) => (
          <li key={i}>
            <LongText text={String(b)} preserveLines />
          </li>
        ))}
      </ul>
    );
  }
  const source = content ?? payload;
  const text = str(source.text) ?? str(source.question) ?? str(payload.goal);
  const severity = str(source.severity);
  const mitigation = str(source.mitigation);
  return (
    <div className="text-sm">
      <p className="min-w-0 [overflow-wrap:anywhere]">
        {severity ? (
          <span className="mr-1 font-medium uppercase text-rose-700 dark:text-rose-300">
            <LongText text={severity} chars={40} />
          </span>
        ) : null}
        {text !== null ? (
          <LongText text={text} preserveLines testId="message-text" />
        ) : (
          <span className="font-mono text-xs text-slate-500">{JSON.stringify(content ?? payload).slice(0, 300)}</span>
        )}
      </p>
      {mitigation ? (
        <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
          Mitigation: <LongText text={mitigation} preserveLines />
        </p>
      ) : null}
    </div>
  );
}

const BADGE: Record<string, string> = {
  ack: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
  clarifying_question: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-200',
  progress: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200',
  finding: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  risk: 'bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-200',
  result: 'bg-teal-100 text-teal-800 dark:bg-teal-950 dark:text-teal-200',
  artifact_link: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  say: 'bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200',
};

export function TypeBadge({ type }: { type: string | null }) {
  return (
    <span
      data-testid="message-type"
      className={`rounded px-1.5 py-0.5 font-mono text-[11px] leading-4 ${BADGE[type ?? ''] ?? 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'}`}
    >
      {type === null ? 'unknown' : type.length > 40 ? `${type.slice(0, 40)}…` : type}
    </span>
  );
}
