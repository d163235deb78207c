// One Agora thread: REQUEST → OFFERs → ACCEPT → RESULT (or ERROR) as a timeline, live through
// the relay's cursor long-poll, each envelope's signature checked in this browser, and the
// operator's ACCEPT of an offer signed here with their own key.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import type { EnvelopeOf } from '@shared/agora/envelope';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { StatusDot } from '@web/components/ui/status-dot';
import { postEnvelope } from '@web/lib/api/agora-event-post';
import { isNotFound } from '@web/lib/api/http';
import { directoryQuery } from '@web/lib/api/agora-agents';
import { threadQuery } from '@web/lib/api/agora-thread';
import { shortDid } from '@web/lib/identity/did-short';
import { signAsOperator } from '@web/lib/identity/sign-agora-envelope';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { useMemo } from 'react';
import { relayErrorWords, threadStatusWords } from './agora-words';
import { buildAccept } from './envelope-builders';
import { ThreadMessage } from './thread-message';
import { threadTimeline } from './thread-timeline';
import { useNow } from '@web/lib/use-now';
import { useThreadLive, type LiveStatus } from './use-thread-live';
import { verdictsQuery } from './verdicts-query';

const LIVE_WORDS: Record<LiveStatus, { tone: 'ok' | 'warn' | 'idle'; label: string }> = {
  connecting: { tone: 'idle', label: 'Connecting…' },
  live: { tone: 'ok', label: 'Live' },
  reconnecting: { tone: 'warn', label: 'Reconnecting…' },
  ended: { tone: 'idle', label: 'Thread ended' },
};

export function ThreadPage() {
  const { threadId } = useParams({ from: '/console/threads/$threadId' });
  const detail = useQuery(threadQuery(threadId));
  const session = useSession();
  const directory = useQuery(directoryQuery);
  const queryClient = useQueryClient();
  const events = useMemo(() => detail.data?.events ?? [], [detail.data]);
  const entries = useMemo(() => threadTimeline(events), [events]);
  const verdicts = useQuery(verdictsQuery(events));
  const thread = detail.data?.thread;
  const terminal = thread?.status === 'COMPLETED' || thread?.status === 'ERROR';
  const live = useThreadLive(threadId, events.at(-1)?.cursor, terminal);
  // Hides the Accept button of an offer past its valid_until (the relay would refuse it, §10).
  const now = useNow(5_000);

  const accept = useMutation({
    mutationFn: async (offer: EnvelopeOf<'OFFER'>) => {
      const envelope = await signAsOperator((did) => buildAccept(did, offer, { now: Date.now(), newId: () => crypto.randomUUID() }));
      return postEnvelope(envelope);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadQuery(threadId).queryKey }),
  });

  if (detail.isPending) {
    return (
      <p role="status" className="mx-auto max-w-4xl text-sm text-slate-500">
        Loading the thread…
      </p>
    );
  }
  if (detail.isError) {
    return (
      <div className="mx-auto max-w-4xl">
        <Notice
          tone="error"
          title={isNotFound(detail.error) ? 'No such thread' : 'Cannot show this thread'}
          action={isNotFound(detail.error) ? <Link to="/threads" className="text-sm font-medium text-teal-700 hover:underline dark:text-teal-300">All threads</Link> : <Button onClick={() => void detail.refetch()}>Try again</Button>}
        >
          {detail.error.message}
        </Notice>
      </div>
    );
  }
  const { state } = detail.data.thread;
  const words = threadStatusWords(state.status, state.ended);
  const me = session?.did;
  const isClient = me !== undefined && state.client === me;
  const mayAccept = canAct(session) && isClient && state.status === 'PENDING' && detail.data.thread.expected.includes('ACCEPT');
  const liveWords = LIVE_WORDS[live];
  const failedCount = verdicts.data ? entries.filter((e) => verdicts.data.get(e.rawJson)?.status === 'failed').length : 0;

  return (
    <div className="mx-auto max-w-4xl">
      <Link to="/threads" className="text-sm text-teal-700 hover:underline dark:text-teal-300">
        ← All threads
      </Link>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">Thread</h1>
          <p className="break-all font-mono text-xs text-slate-500 dark:text-slate-400">{threadId}</p>
        </div>
        <div className="flex items-center gap-4">
          <Link to="/story/$kind/$id" params={{ kind: 'thread', id: threadId }} className="text-sm font-medium text-teal-700 hover:underline dark:text-teal-300">
            Story
          </Link>
          <StatusDot tone={liveWords.tone} label={liveWords.label} />
        </div>
      </div>
      <section aria-label="Thread state" className="mt-4 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
        <p className="text-sm">
          <span className="font-semibold" data-testid="thread-status">
            {words.label}
          </span>
          <span className="text-slate-600 dark:text-slate-400"> · {words.detail}</span>
        </p>
        <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">Client</dt>
          <dd className="text-sm" title={state.client}>
            {state.client ? (
              <>
                {isClient ? 'You' : (directory.data?.find((a) => a.agent_id === state.client)?.agent_name ?? 'Client')} <span className="font-mono text-xs text-slate-500 dark:text-slate-400">{shortDid(state.client)}</span>
              </>
            ) : (
              '—'
            )}
          </dd>
          <dt className="text-slate-500">Addressed to</dt>
          <dd className="text-sm" title={state.addressedTo} data-testid="thread-addressed-to">
            {state.addressedTo ? (
              <>
                {directory.data?.find((a) => a.agent_id === state.addressedTo)?.agent_name ?? 'Agent'} <span className="font-mono text-xs text-slate-500 dark:text-slate-400">{shortDid(state.addressedTo)}</span>
              </>
            ) : (
              'any agent'
            )}
          </dd>
          <dt className="text-slate-500">Offers</dt>
          <dd>{state.offers?.length ?? 0}</dd>
        </dl>
      </section>
      {failedCount > 0 ? (
        <div className="mt-4">
          <Notice tone="error" title={`${failedCount} ${failedCount === 1 ? 'message does' : 'messages do'} not verify`}>
            This browser could not verify their signatures against their senders’ keys: they were changed after signing, or never signed by who they claim. Do not act on them.
          </Notice>
        </div>
      ) : null}
      {accept.isError ? (
        <div className="mt-4">
          <Notice tone="error" title="The relay refused the acceptance">
            {relayErrorWords(accept.error)}
          </Notice>
        </div>
      ) : null}
      <ol aria-label="Thread timeline" className="mt-4 space-y-3">
        {entries.map((entry) => {
          const verdict = verdicts.data?.get(entry.rawJson);
          const offer = entry.envelope?.type === 'OFFER' ? entry.envelope : null;
          const canAcceptThis = mayAccept && offer !== null && verdict?.status === 'verified' && state.offers?.some((o) => o.offerId === offer.id && (o.validUntil === undefined || o.validUntil > now));
          return (
            <ThreadMessage
              key={entry.key}
              entry={entry}
              verdict={verdict}
              mine={me !== undefined && entry.senderId === me}
              accepted={offer !== null && state.accepted?.offerId === offer.id}
              onAccept={canAcceptThis ? () => accept.mutate(offer) : undefined}
              accepting={accept.isPending && accept.variables?.id === offer?.id}
            />
          );
        })}
      </ol>
    </div>
  );
}
