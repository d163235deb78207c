// The transparency-log browser: every entry, verified as a whole chain in this browser, read in
// words (decisions-web.md §34): who agreed to what, from when, each term labelled with its unit,
// terms a party redacted shown as "hidden by a party", and each entry's verification state. The
// pointers, digests, hashes and the inclusion proof (checked on demand against the head hash) are
// behind "Show the proof".
import { When } from '@web/components/when';
import { useQuery } from '@tanstack/react-query';
import { LongText } from '@web/components/ui/long-text';
import { displayText } from '@web/lib/display-text';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { verifyInclusion } from '@shared/negotiation/inclusion-proof';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { fetchLogProof } from '@web/lib/api/transparency-log-proof';
import { Name } from '@web/components/name';
import { useEffect, useRef, useState } from 'react';
import { AgreementTerms } from '@web/components/agreement-terms';
import { useDisplayZone } from '@web/components/when';
import { agreementSentence } from '@web/lib/negotiation/agreement-words';
import { useNames } from '@web/lib/names/use-names';
import { useNow } from '@web/lib/use-now';
import { readEntry } from './entry-words';
import { loadAndVerifyLog, type LogProgress } from './verify-log';

const PAGE_SIZE = 20;
type Raw = Record<string, unknown>;
const obj = (v: unknown): Raw => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Raw) : {});
const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function progressWords(p: LogProgress | null): string {
  if (p === null) return 'Starting…';
  if (p.phase === 'fetching') return p.total === null ? 'Fetching entries…' : `Fetched ${p.done} of ${p.total} entries`;
  if (p.phase === 'signatures') return `Verified ${p.done} of ${p.total} signatures`;
  return 'Checking the hash chain…';
}

export function TransparencyLogPage() {
  const search = useSearch({ strict: false }) as { entry?: number };
  const navigate = useNavigate();
  const [progress, setProgress] = useState<LogProgress | null>(null);
  const [filter, setFilter] = useState('');
  const [run, setRun] = useState(0);
  const log = useQuery({
    queryKey: ['transparency-log', 'verified', run],
    queryFn: ({ signal }) => loadAndVerifyLog(setProgress, signal),
    staleTime: Infinity,
    retry: false,
  });

  const entries = log.data?.entries ?? [];
  const { nameOf } = useNames();
  const wanted = filter.trim().toLowerCase();
  // Found by what a person reads (names, terms) or by an id pasted from elsewhere.
  const matches = (e: Raw) => {
    if (!wanted) return true;
    const r = readEntry(e);
    return `${JSON.stringify(e)} ${r.parties.map(nameOf).join(' ')}`.toLowerCase().includes(wanted);
  };
  const shown = entries
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => matches(e))
    .reverse();
  const focusIndex = search.entry;
  const focusPos = focusIndex === undefined ? -1 : shown.findIndex(({ i }) => i === focusIndex);
  // Until the operator pages, the page is the one holding the entry named in the URL.
  const [page, setPage] = useState<number | null>(null);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page ?? (focusPos >= 0 ? Math.floor(focusPos / PAGE_SIZE) : 0), pages - 1);
  const verdict = log.data?.verdict;

  return (
    <div className="mx-auto max-w-5xl">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Transparency log</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Every agreement, hash-chained and append-only. This browser fetches the whole log and verifies it from the
            first entry; nothing here is taken on the server’s word.
          </p>
        </div>
        <Button onClick={() => setRun((r) => r + 1)} busy={log.isFetching}>
          Verify again
        </Button>
      </div>

      <div className="mt-5" data-testid="chain-verdict">
        {log.isPending || log.isFetching ? (
          <div
            role="status"
            className="rounded-lg border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <p>{progressWords(progress)}</p>
            {progress && progress.phase !== 'chain' && progress.total ? (
              <progress
                className="mt-2 h-2 w-full accent-teal-600"
                value={progress.done}
                max={progress.total}
                aria-label={progressWords(progress)}
              />
            ) : null}
          </div>
        ) : log.isError ? (
          <Notice tone="error" title="Cannot read the log">
            {log.error instanceof Error ? log.error.message : 'Unknown error.'}
          </Notice>
        ) : verdict?.ok ? (
          <Notice tone="success" title={`Chain verified: ${verdict.size} ${verdict.size === 1 ? 'entry' : 'entries'}`}>
            {verdict.size === 0
              ? 'The log is empty: an entry is appended when a negotiation ends in an accepted agreement. Start one from Negotiations, or run the Demo.'
              : `Every link, entry hash, timestamp, public view and signature checks out from genesis to the head${verdict.headHash ? ` ${verdict.headHash.slice(0, 23)}…` : ''}.`}
          </Notice>
        ) : verdict ? (
          <Notice
            tone="error"
            title={
              verdict.brokenIndex === null
                ? 'The chain does not verify'
                : `The chain breaks at entry #${verdict.brokenIndex}`
            }
          >
            {verdict.message} ({verdict.code}). Entries from there on cannot be trusted.
          </Notice>
        ) : null}
      </div>

      {log.data ? (
        <>
          <div className="mt-5 flex flex-wrap items-center gap-3">
            <label htmlFor="log-filter" className="text-sm text-slate-700 dark:text-slate-300">
              Find
            </label>
            <input
              id="log-filter"
              value={filter}
              onChange={(e) => {
                setFilter(e.target.value);
                setPage(0);
              }}
              placeholder="a party’s name, a term, an id…"
              className="w-80 max-w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
            />
            <span className="ml-auto text-sm text-slate-600 dark:text-slate-400">
              Newest first · page {current + 1} of {pages}
            </span>
            <Button size="sm" disabled={current === 0} onClick={() => setPage(current - 1)}>
              Newer
            </Button>
            <Button size="sm" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
              Older
            </Button>
          </div>
          <ol className="mt-3 space-y-3" aria-label="Log entries">
            {shown.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE).map(({ e, i }) => (
              <LogEntryCard
                key={i}
                entry={e}
                broken={
                  verdict && !verdict.ok && verdict.brokenIndex !== null && i >= verdict.brokenIndex
                    ? i === verdict.brokenIndex
                      ? 'first'
                      : 'after'
                    : null
                }
                focused={i === focusIndex}
                headHash={log.data.head?.entry_hash ?? null}
                onFocus={() => void navigate({ to: '/transparency-log', search: { entry: i } })}
              />
            ))}
          </ol>
        </>
      ) : null}
    </div>
  );
}

function LogEntryCard({
  entry,
  broken,
  focused,
  headHash,
  onFocus,
}: {
  entry: Raw;
  broken: 'first' | 'after' | null;
  focused: boolean;
  headHash: string | null;
  onFocus: () => void;
}) {
  const view = obj(entry['public']);
  const disclosures = Object.entries(obj(view['disclosures']));
  const index = Number(entry['index']);
  const reading = readEntry(entry);
  const { nameOf } = useNames();
  const zone = useDisplayZone();
  const now = useNow(60_000);
  const ref = useRef<HTMLLIElement>(null);
  const [proofOpen, setProofOpen] = useState(focused);
  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'center' });
  }, [focused]);
  const proof = useQuery({
    queryKey: ['transparency-log', 'proof', index, headHash],
    enabled: focused,
    queryFn: async ({ signal }) => {
      const answer = await fetchLogProof(index, signal);
      const verdict = verifyInclusion(answer.proof, answer.head_hash);
      return { verdict, sameHead: answer.head_hash === headHash, integrity: entry['integrity_hash'] };
    },
  });
  const proofOk =
    proof.data?.verdict.ok === true &&
    proof.data.sameHead &&
    proof.data.verdict.value.integrity_hash === proof.data.integrity;
  const [a, b] = reading.parties;
  const sentence =
    a && b
      ? agreementSentence({
          parties: [nameOf(a), nameOf(b)],
          terms: reading.terms,
          effectiveFrom: reading.effectiveFrom,
          zone,
          now,
        })
      : 'An agreement whose parties are not disclosed';

  return (
    <li
      ref={ref}
      data-testid="log-entry"
      data-index={index}
      className={`rounded-lg border bg-white p-4 dark:bg-slate-900 ${broken === 'first' ? 'border-rose-400 dark:border-rose-700' : focused ? 'border-teal-500 ring-2 ring-teal-500/30' : 'border-slate-200 dark:border-slate-800'}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
        <span className="font-medium text-slate-700 dark:text-slate-300">Entry {index}</span>
        <When at={text(entry['timestamp'])} />
        {reading.category ? <span>{reading.category}</span> : null}
        <span className="ml-auto" data-testid="entry-verified">
          {broken === 'first' ? (
            <span className="rounded-full bg-rose-100 px-2 py-0.5 font-medium text-rose-900 dark:bg-rose-950 dark:text-rose-200">
              ✗ First broken entry
            </span>
          ) : broken === 'after' ? (
            <span className="text-rose-700 dark:text-rose-300">After the break: unverified</span>
          ) : (
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 font-medium text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">
              ✓ Verified in this browser
            </span>
          )}
        </span>
      </div>
      <h2 className="mt-1 text-sm font-semibold" data-testid="entry-sentence">
        {sentence}
      </h2>
      <AgreementTerms terms={reading.terms} category={reading.category} hidden={reading.hidden} className="mt-2" />
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
        Signed by{' '}
        {reading.signers.length === 0
          ? 'nobody'
          : reading.signers.map((s, i) => (
              <span key={s}>
                {i > 0 ? ' and ' : null}
                <Name id={s} />
              </span>
            ))}
        {reading.confidentiality ? ` · ${reading.confidentiality} agreement` : ''}
      </p>
      <details
        className="mt-3 text-sm"
        open={proofOpen}
        onToggle={(e) => setProofOpen((e.target as HTMLDetailsElement).open)}
        data-testid="entry-proof-details"
        data-proof
      >
        <summary className="cursor-pointer text-xs font-medium text-slate-700 dark:text-slate-300">
          Show the proof
        </summary>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          {focused ? (
            proof.isPending ? (
              <span className="text-xs text-slate-500">Checking the inclusion proof…</span>
            ) : (
              <span
                data-testid="entry-proof"
                className={`rounded-full px-2 py-0.5 text-xs font-medium ${proofOk ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200' : 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200'}`}
              >
                {proofOk ? '✓ Inclusion proof verified against the head' : '✗ Inclusion proof does not verify'}
              </span>
            )
          ) : (
            <Button size="sm" variant="ghost" onClick={onFocus}>
              Check inclusion proof
            </Button>
          )}
        </div>
        <p className="mt-2 break-all font-mono text-[11px] text-slate-500 dark:text-slate-400">
          agreement {reading.agreementId ?? '—'} · integrity {text(entry['integrity_hash'])} · entry{' '}
          {text(entry['entry_hash'])}
        </p>
        <dl className="mt-3 grid grid-cols-[minmax(0,8rem)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm sm:grid-cols-[minmax(8rem,13rem)_minmax(0,1fr)]">
          {disclosures.map(([pointer, d]) => {
            const disclosure = obj(d);
            const redacted = !('value' in disclosure);
            return (
              <div key={pointer} className="contents" data-testid="disclosure" data-redacted={redacted}>
                <dt className="min-w-0 font-mono text-xs leading-5 text-slate-600 dark:text-slate-400">
                  <LongText text={pointer} chars={120} />
                </dt>
                <dd className="min-w-0 [overflow-wrap:anywhere]">
                  {redacted ? (
                    <span title={`digest ${text(disclosure['digest'])}`}>
                      <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
                        redacted
                      </span>{' '}
                      <span className="font-mono text-[11px] text-slate-500">
                        digest {text(disclosure['digest']).slice(0, 16)}…
                      </span>
                    </span>
                  ) : (
                    <LongText text={displayText(text(disclosure['value']))} preserveLines />
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      </details>
    </li>
  );
}
