// One envelope in a thread's timeline: type, sender, time, what it says, the signature
// verdict computed in this browser, and the raw envelope. Everything agents wrote is text.
import { Name } from '@web/components/name';
import { When } from '@web/components/when';
import { Button } from '@web/components/ui/button';
import { LongText } from '@web/components/ui/long-text';
import { CopyButton } from '@web/components/ui/copy-button';
import type { BridgeNote } from './bridge-verdict';
import type { TimelineEntry } from './thread-timeline';
import type { Verdict } from './verify-envelopes';

const TYPE_TONE: Record<string, string> = {
  REQUEST: 'bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100',
  OFFER: 'bg-violet-100 text-violet-900 dark:bg-violet-900/40 dark:text-violet-100',
  ACCEPT: 'bg-teal-100 text-teal-900 dark:bg-teal-900/40 dark:text-teal-100',
  RESULT: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100',
  ERROR: 'bg-rose-100 text-rose-900 dark:bg-rose-900/40 dark:text-rose-100',
  CANCEL: 'bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100',
};

export function VerdictBadge({ verdict }: { verdict: Verdict | undefined }) {
  if (!verdict) {
    return (
      <span
        data-testid="verdict"
        data-verdict="checking"
        className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300"
      >
        Checking signature…
      </span>
    );
  }
  if (verdict.status === 'verified') {
    return (
      <span
        data-testid="verdict"
        data-verdict="verified"
        title={`Signed by ${verdict.signer}; checked in this browser`}
        className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100"
      >
        ✓ Verified
      </span>
    );
  }
  return (
    <span
      data-testid="verdict"
      data-verdict="failed"
      className="rounded-full bg-rose-600 px-2 py-0.5 text-xs font-semibold text-white dark:bg-rose-500 dark:text-slate-950"
    >
      ✗ Signature does not verify: {verdict.words}
    </span>
  );
}

export interface ThreadMessageProps {
  readonly entry: TimelineEntry;
  readonly verdict: Verdict | undefined;
  readonly mine: boolean;
  /** "Accepted" on the OFFER the thread accepted. */
  readonly accepted: boolean;
  /** Present when this OFFER may be accepted by the operator now. */
  readonly onAccept?: (() => void) | undefined;
  readonly accepting?: boolean;
  /** For a thread bridged from an external relay: the bridge's word when it did not apply it. */
  readonly bridge?: BridgeNote | null;
}

export function ThreadMessage({
  entry,
  verdict,
  mine,
  accepted,
  onAccept,
  accepting = false,
  bridge = null,
}: ThreadMessageProps) {
  const failed = verdict?.status === 'failed' || bridge?.kind === 'untrusted';
  return (
    <li
      data-testid="thread-message"
      data-type={entry.type}
      className={`rounded-lg border bg-white p-4 dark:bg-slate-900 ${failed ? 'border-rose-400 dark:border-rose-700' : 'border-slate-200 dark:border-slate-800'}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span
          data-testid="message-type"
          className={`rounded px-1.5 py-0.5 font-mono text-xs font-semibold ${TYPE_TONE[entry.type] ?? 'bg-slate-100 dark:bg-slate-800'}`}
        >
          {entry.type}
        </span>
        <span className="text-sm font-medium">
          {mine ? (
            'You'
          ) : entry.senderId ? (
            <Name id={entry.senderId} label={entry.senderName ?? undefined} />
          ) : (
            (entry.senderName ?? 'Unnamed agent')
          )}
        </span>
        {accepted ? (
          <span className="rounded-full bg-teal-700 px-2 py-0.5 text-xs font-medium text-white dark:bg-teal-500 dark:text-slate-950">
            Accepted
          </span>
        ) : null}
        <span className="ml-auto flex items-center gap-2">
          {entry.ts && Number.isFinite(Date.parse(entry.ts)) ? (
            <When at={entry.ts} className="text-xs text-slate-500 dark:text-slate-400" />
          ) : (
            <span className="text-xs text-slate-500 dark:text-slate-400">
              (no time) <When at={entry.receivedAt} prefix="received " />
            </span>
          )}
          {bridge?.kind === 'untrusted' ? (
            // The bridge's refusal outranks a signature that verifies (a replay, an expired ttl…).
            <span
              data-testid="verdict"
              data-verdict="unverifiable"
              className="rounded-full bg-rose-600 px-2 py-0.5 text-xs font-semibold text-white dark:bg-rose-500 dark:text-slate-950"
            >
              ✗ Unverifiable
            </span>
          ) : (
            <VerdictBadge verdict={verdict} />
          )}
        </span>
      </div>
      {bridge ? (
        <p
          data-testid="bridge-note"
          data-kind={bridge.kind}
          className={`mt-2 text-sm ${bridge.kind === 'untrusted' ? 'font-medium text-rose-700 dark:text-rose-300' : 'text-amber-800 dark:text-amber-200'}`}
        >
          {bridge.words}
        </p>
      ) : null}
      {entry.facts.length > 0 ? (
        <dl className="mt-3 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
          {entry.facts.map((fact) => (
            <div key={fact.label} className="contents">
              <dt className="text-slate-500 dark:text-slate-400">{fact.label}</dt>
              <dd className="min-w-0" data-testid={`fact-${fact.label.toLowerCase().replace(/\s+/g, '-')}`}>
                {fact.code ? (
                  <div className="rounded bg-slate-50 px-2 py-1 font-mono text-xs dark:bg-slate-950">
                    <LongText as="div" text={fact.value} preserveLines />
                  </div>
                ) : (
                  <LongText text={fact.value} preserveLines />
                )}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {onAccept ? (
        <div className="mt-3">
          <Button variant="primary" size="sm" onClick={onAccept} busy={accepting} disabled={failed}>
            Accept this offer
          </Button>
        </div>
      ) : null}
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white">
          Raw envelope
        </summary>
        <div className="mt-2 flex justify-end">
          <CopyButton text={entry.rawJson} label="Copy JSON" />
        </div>
        <pre
          data-testid="raw-envelope"
          className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-all rounded-md bg-slate-950 p-3 font-mono text-xs leading-5 text-slate-100"
        >
          {entry.rawJson}
        </pre>
      </details>
    </li>
  );
}
