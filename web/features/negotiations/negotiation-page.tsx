// One negotiation: the rounds as a timeline with field-level diffs, every
// signature and the whole history verified in this browser, the live valid_until countdown,
// the operator's moves when it is a party, the agreement with co-signing and its log proof,
// and export. What changed since this browser last showed it is marked. With `?source=<serviceId>`
// it is a negotiation on that external service, read and acted on through the
// console's forwarder; a read-only or unreachable service shows why nothing can be sent.
import { When } from '@web/components/when';
import { absolute } from '@web/lib/time-words';
import { StoryLink } from '@web/components/story-link';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { displayText } from '@web/lib/display-text';
import { Link, useParams, useSearch } from '@tanstack/react-router';
import type { PartyDid } from '@shared/negotiation/primitives';
import { Button } from '@web/components/ui/button';
import { isNotFound } from '@web/lib/api/http';
import { Notice } from '@web/components/ui/notice';
import { SourceBadge } from '@web/components/ui/source-badge';
import { servicesQuery } from '@web/lib/api/external-services';
import { sendBlockedReason } from '@web/lib/external-blocked';
import type { SourceSearch } from '@web/lib/source-search';
import { negotiationQuery, type NegotiationDetail } from '@web/lib/api/negotiation-get';
import type { LogProof } from '@web/lib/api/transparency-log-proof';
import { keyFingerprint } from '@web/lib/identity/did-display';
import { downloadTextFile } from '@web/lib/identity/download-file';
import { useSession } from '@web/lib/identity/use-session';
import { useEffect, useState } from 'react';
import { AgreementPanel, proofQueryKey } from './agreement-panel';
import { exportFileName, negotiationExport } from './export';
import { Party, StateBadge, VerifiedBadge } from './parts';
import { PartyActions } from './party-actions';
import { RoundTimeline } from './round-timeline';
import { seenStore, type Seen } from './seen-versions';
import { useNow } from '@web/lib/use-now';
import { useVerdict } from './use-verdict';
import { countdown, negotiationErrorInWords } from './words';

/**
 * The baseline for "new": the last-seen mark as it was when this page opened or, for a
 * negotiation this browser never showed, its first answer. Items after it are new, including
 * those that arrive while the page is open. The store is updated as data arrives.
 */
function useSeen(id: string, detail: NegotiationDetail | undefined): Seen | null {
  const [before] = useState(() => seenStore.get(id));
  const [first, setFirst] = useState<Seen | null>(null);
  if (before === null && first === null && detail)
    setFirst({ version: detail.negotiation.version, items: detail.history.length });
  useEffect(() => {
    if (detail) seenStore.set(id, { version: detail.negotiation.version, items: detail.history.length });
  }, [id, detail]);
  return before ?? first;
}

export function NegotiationPage() {
  const { negotiationId } = useParams({ strict: false }) as { negotiationId: string };
  const { source } = useSearch({ strict: false }) as SourceSearch;
  const query = useQuery(negotiationQuery(negotiationId, source));
  // The external service's name, read-only flag and reachability (the list is cached).
  const services = useQuery({ ...servicesQuery, enabled: source !== undefined });
  const service = source === undefined ? undefined : services.data?.services.find((s) => s.id === source);
  const blocked =
    source === undefined
      ? null
      : service
        ? sendBlockedReason(service, 'negotiations')
        : 'The negotiation service is not known to this console.';
  const detail = query.data;
  const verdict = useVerdict(detail);
  const seen = useSeen(negotiationId, detail);
  const session = useSession();
  const me = session?.did;
  const now = useNow(1_000);
  const queryClient = useQueryClient();

  if (query.isPending) {
    return (
      <p role="status" className="mx-auto max-w-5xl text-sm text-slate-500">
        Loading the negotiation…
      </p>
    );
  }
  // A failed re-read keeps what was shown (a service that went down), with a notice below.
  if (!detail) {
    return (
      <div className="mx-auto max-w-5xl">
        <Notice
          tone="error"
          title={isNotFound(query.error) ? 'No such negotiation' : 'Cannot show this negotiation'}
          action={
            isNotFound(query.error) ? (
              <Link to="/negotiations" className="text-sm font-medium text-teal-700 hover:underline dark:text-teal-300">
                All negotiations
              </Link>
            ) : (
              <Button onClick={() => void query.refetch()}>Try again</Button>
            )
          }
        >
          {negotiationErrorInWords(query.error)}
        </Notice>
      </div>
    );
  }

  const n = detail.negotiation;
  const signed = verdict?.documents.filter((d) => d.status !== 'unsigned') ?? [];
  const verifiedCount = signed.filter((d) => d.status === 'verified').length;
  const allVerified = verdict !== null && verifiedCount === signed.length && verdict.replay.ok;
  const amParty = me !== undefined && n.parties.includes(me);
  const replayed = verdict?.replay.ok ? verdict.replay.state : null;

  const exportJson = () => {
    const at = new Date();
    const proof = detail.log
      ? (queryClient.getQueryData(proofQueryKey(n.id, source, detail.log.index, n.version)) as
          { answer: LogProof } | undefined)
      : undefined;
    downloadTextFile(
      exportFileName(n.id, at),
      JSON.stringify(negotiationExport(detail, proof?.answer ?? null, verdict, at), null, 2),
    );
  };

  return (
    <div className="mx-auto max-w-5xl space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/negotiations" className="text-teal-700 underline underline-offset-2 dark:text-teal-300">
          Negotiations
        </Link>
        <span className="text-slate-400"> / </span>
        <span className="min-w-0 font-mono text-xs">{displayText(n.id)}</span>
      </nav>

      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
            {n.category} negotiation <StateBadge state={n.state} />{' '}
            <SourceBadge
              name={service?.name ?? (source === undefined ? 'built-in' : source)}
              down={service?.status.state === 'down'}
            />
          </h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {n.rounds} of {n.max_rounds} rounds · {n.confidentiality} · opened <When at={n.created_at} /> · last
            activity <When at={n.last_activity} form="relative" />
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {source === undefined ? <StoryLink kind="negotiation" id={n.id} /> : null}
          {n.valid_until ? (
            <span
              data-testid="valid-until-countdown"
              className={`rounded-md px-2.5 py-1 text-sm font-medium tabular-nums ${n.expiring_soon ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200' : 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200'}`}
              title={`Valid until ${absolute(Date.parse(n.valid_until))} (valid_until)`}
            >
              Latest proposal: {countdown(Date.parse(n.valid_until), now)}
            </span>
          ) : null}
          <Button onClick={exportJson}>Export JSON</Button>
        </div>
      </header>

      <dl
        data-testid="negotiation-parties"
        className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-2 dark:border-slate-800 dark:bg-slate-900"
      >
        {n.parties.map((p, i) => (
          <div key={p}>
            <dt className="flex flex-wrap items-center gap-2 font-medium">
              <Party did={p} me={me} />
              <span className="text-xs font-normal text-slate-500 dark:text-slate-400">
                {i === 0 ? 'first party' : 'second party'}
                {p === n.opened_by ? ', opened it' : ''}
              </span>
            </dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-xs text-slate-500 dark:text-slate-400" title="Key fingerprint">
                {keyFingerprint(p)}
              </span>
            </dd>
          </div>
        ))}
      </dl>

      {n.regulated_obligations.length > 0 ? (
        <Notice tone="warn" title="Regulated obligations (RFC 0002 §3.7)">
          <ul>
            {n.regulated_obligations.map((o) => (
              <li key={o.party}>
                <Party did={o.party} me={me} /> is a regulated {o.profession} party: {o.obligations.join(', ')}.
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}

      {query.isRefetchError ? (
        <Notice tone="error" title={service ? `${service.name} cannot be read now` : 'Cannot refresh this negotiation'}>
          {negotiationErrorInWords(query.error)} What is shown was read before; the console keeps retrying.
        </Notice>
      ) : null}

      <div data-testid="history-verdict">
        {verdict === null ? (
          <VerifiedBadge ok={null} label="Checking signatures in this browser…" />
        ) : allVerified ? (
          <Notice tone="success" title="Verified in this browser">
            All {signed.length} signatures verify against the parties’ did:keys, and the history replays through the RFC
            0002 state machine to the state shown.
          </Notice>
        ) : (
          <Notice tone="error" title="This history does not verify">
            {verifiedCount} of {signed.length} signatures verify.{' '}
            {!verdict.replay.ok
              ? `The first step that fails is ${verdict.replay.index === null ? 'unknown' : `item ${verdict.replay.index + 1}`}: ${verdict.replay.message} (${verdict.replay.code}).`
              : null}{' '}
            Do not rely on what the server shows here.
          </Notice>
        )}
      </div>

      {amParty && me && blocked !== null ? (
        <Notice tone="warn" title="Acting is disabled">
          {blocked}
        </Notice>
      ) : amParty && me ? (
        replayed ? (
          <PartyActions
            key={`${replayed.history.length}`}
            state={replayed}
            me={me as PartyDid}
            now={now}
            defaultValidityMinutes={detail.limits.defaultValidityMinutes}
            source={source}
          />
        ) : verdict ? (
          <Notice tone="warn" title="Acting is disabled">
            You are a party, but this history does not verify in this browser, so nothing will be signed on top of it.
          </Notice>
        ) : null
      ) : null}

      <AgreementPanel detail={detail} verdict={verdict} me={me} source={source} blocked={blocked} />

      <section aria-labelledby="history-heading">
        <h2 id="history-heading" className="mb-3 text-lg font-semibold">
          Round by round
        </h2>
        <RoundTimeline detail={detail} verdicts={verdict?.documents ?? null} seen={seen} me={me} />
      </section>
    </div>
  );
}
