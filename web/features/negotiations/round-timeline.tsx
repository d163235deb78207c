// The history as a timeline: open → proposals, each with its diff from the
// proposal it counters → accept / reject / withdraw / expire → co-sign. Each signed document
// carries the verdict this browser reached on it; items new since the last visit are marked.
import { When } from '@web/components/when';
import type { NegotiationDetail } from '@web/lib/api/negotiation-get';
import { LongText } from '@web/components/ui/long-text';
import { displayText } from '@web/lib/display-text';
import { useState } from 'react';
import { Party, VerifiedBadge } from './parts';
import { isNewItem, type Seen } from './seen-versions';
import { diffTerms } from './terms-diff';
import { TermsDiff, TermsTable } from './terms-view';
import type { DocumentVerdict } from './verify-history';

type Raw = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Raw => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Raw) : {});

function headline(item: Raw): { title: string; who: string } {
  const d = obj(item['document']);
  switch (item['type']) {
    case 'open':
      return { title: `Opened (${str(d['category'])})`, who: str(d['opened_by']) };
    case 'propose':
      return {
        title: d['previous_proposal_id']
          ? `Round ${String(d['round'])} · counter-proposal`
          : `Round ${String(d['round'])} · proposal`,
        who: str(d['from']),
      };
    case 'accept':
      return { title: 'Accepted', who: str(d['by']) };
    case 'reject':
      return { title: 'Rejected', who: str(d['by']) };
    case 'withdraw':
      return { title: 'Withdrew', who: str(d['by']) };
    case 'expire':
      return { title: 'Expired: the latest proposal lapsed', who: '' };
    case 'cosign':
      return { title: 'Co-signed the agreement', who: str(item['by']) };
    default:
      return { title: `Unknown step “${str(item['type'])}”`, who: '' };
  }
}

export function RoundTimeline({
  detail,
  verdicts,
  seen,
  me,
}: {
  detail: NegotiationDetail;
  verdicts: readonly DocumentVerdict[] | null;
  seen: Seen | null;
  me: string | undefined;
}) {
  const termsAt = detail.history.map((item) =>
    item['type'] === 'propose' ? obj(obj(item['document'])['terms']) : null,
  );
  const rows = detail.history.map((item, index) => {
    const d = obj(item['document']);
    // The proposal this one counters: the latest proposal before it.
    const before =
      termsAt
        .slice(0, index)
        .reverse()
        .find((t) => t !== null) ?? null;
    return { item, index, d, terms: termsAt[index] ?? null, before };
  });
  return (
    <ol
      className="relative space-y-3 border-l-2 border-slate-200 pl-5 dark:border-slate-800"
      aria-label="History, oldest first"
    >
      {rows.map(({ item, index, d, terms, before }) => (
        <TimelineItem
          key={index}
          item={item}
          index={index}
          d={d}
          terms={terms}
          before={before}
          verdict={verdicts?.[index] ?? null}
          fresh={isNewItem(seen, index) && headline(item).who !== me}
          me={me}
        />
      ))}
    </ol>
  );
}

function TimelineItem({
  item,
  index,
  d,
  terms,
  before,
  verdict,
  fresh,
  me,
}: {
  item: Raw;
  index: number;
  d: Raw;
  terms: Raw | null;
  before: Raw | null;
  verdict: DocumentVerdict | null;
  fresh: boolean;
  me: string | undefined;
}) {
  const { title, who } = headline(item);
  const [showAll, setShowAll] = useState(before === null);
  const reason = str(d['reason']);
  return (
    <li
      data-testid="history-item"
      data-type={str(item['type'])}
      className="relative rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
    >
      <span
        aria-hidden
        className="absolute -left-[27px] top-4 size-3 rounded-full border-2 border-white bg-slate-400 dark:border-slate-950"
      />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 className="min-w-0 font-medium">
          <LongText text={title} chars={200} />
        </h3>
        {who ? <Party did={who} me={me} /> : null}
        {fresh ? (
          <span
            data-testid="new-mark"
            className="rounded-full bg-teal-100 px-2 py-0.5 text-xs font-medium text-teal-900 dark:bg-teal-950 dark:text-teal-200"
          >
            New since you looked
          </span>
        ) : null}
        <span className="ml-auto text-xs text-slate-500 dark:text-slate-400">
          <When at={str(item['received_at'])} />
        </span>
        {verdict === null ? (
          <VerifiedBadge ok={null} />
        ) : verdict.status === 'unsigned' ? (
          <span className="text-xs text-slate-500 dark:text-slate-400">Recorded by the server (unsigned)</span>
        ) : (
          <VerifiedBadge
            ok={verdict.status === 'verified'}
            title={
              verdict.status === 'not-verified'
                ? verdict.reason
                : `Ed25519 signature by ${verdict.signer}, checked in this browser`
            }
          />
        )}
      </div>
      {terms ? (
        <div className="mt-2 space-y-2">
          {before ? <TermsDiff changes={diffTerms(before, terms)} /> : null}
          {before ? (
            <button
              type="button"
              className="text-xs text-teal-700 underline-offset-2 hover:underline dark:text-teal-300"
              aria-expanded={showAll}
              onClick={() => setShowAll((v) => !v)}
            >
              {showAll ? 'Hide all terms' : 'Show all terms'}
            </button>
          ) : null}
          {showAll ? <TermsTable terms={terms} /> : null}
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Valid until <When at={str(d['valid_until'])} /> ·{' '}
            <LongText className="font-mono" text={displayText(str(d['proposal_id']))} chars={120} />
          </p>
        </div>
      ) : null}
      {reason ? (
        <p className="mt-2 text-sm">
          <span className="text-slate-500 dark:text-slate-400">Reason: </span>
          <LongText text={reason} preserveLines />
        </p>
      ) : null}
      {item['type'] === 'expire' ? (
        <p className="mt-1 font-mono text-xs text-slate-500">
          <LongText text={displayText(str(item['proposal_id']))} chars={120} />
        </p>
      ) : null}
      <span className="sr-only">History item {index + 1}</span>
    </li>
  );
}
