// The screen of one Agora thread, whichever relay holds it: its state, the
// timeline with each envelope's signature checked in this browser, and the operator's ACCEPT of
// an offer, signed here with their own key. Where the thread is read from and where an envelope
// is sent are the caller's (thread-page.tsx): the built-in relay, or an external one through the
// console's forwarding endpoint.
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { displayText } from '@web/lib/display-text';
import { Link } from '@tanstack/react-router';
import type { Envelope, EnvelopeOf } from '@shared/agora/envelope';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import type { ThreadView } from '@web/lib/api/agora-threads';
import { isNotFound } from '@web/lib/api/http';
import { Name } from '@web/components/name';
import { signAsOperator } from '@web/lib/identity/sign-agora-envelope';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { useNow } from '@web/lib/use-now';
import type { ReactNode } from 'react';
import { relayErrorWords, threadStatusWords } from './agora-words';
import type { BridgeNote } from './bridge-verdict';
import { buildAccept } from './envelope-builders';
import { ThreadMessage } from './thread-message';
import type { TimelineEntry } from './thread-timeline';
import { verdictsQuery } from './verdicts-query';

export interface ThreadScreenData {
  readonly state: ThreadView['state'];
  readonly expected: readonly string[];
  /** In the order the thread took them. */
  readonly entries: readonly TimelineEntry[];
  /** The envelopes as received, for this browser's signature check. */
  readonly events: readonly { readonly envelope: unknown }[];
  /** The bridge's note per entry key (external relays only). */
  readonly bridge?: ReadonlyMap<string, BridgeNote | null>;
}

export interface ThreadScreenProps {
  readonly threadId: string;
  readonly read: { readonly isPending: boolean; readonly error: Error | null; readonly refetch: () => unknown };
  readonly data: ThreadScreenData | undefined;
  /** Where the thread lives (the source badge), and its live or reachability status. */
  readonly source: ReactNode;
  readonly status: ReactNode;
  /** Extra links in the header (the story view of a built-in thread). */
  readonly links?: ReactNode;
  /** A notice above the timeline (a relay that is down, read-only). */
  readonly banner?: ReactNode;
  /** Why the operator may not send anything to this thread's relay now; null when they may. */
  readonly blocked: string | null;
  readonly send: (envelope: Envelope) => Promise<unknown>;
  /** Re-read after a send. */
  readonly queryKey: QueryKey;
  /** Which relay refused a send, in the error's title. */
  readonly relayName: string;
}

export function ThreadScreen({
  threadId,
  read,
  data,
  source,
  status,
  links,
  banner,
  blocked,
  send,
  queryKey,
  relayName,
}: ThreadScreenProps) {
  const session = useSession();
  const queryClient = useQueryClient();
  const verdicts = useQuery(verdictsQuery(data?.events ?? []));
  // Hides the Accept button of an offer past its valid_until (the relay would refuse it, §10).
  const now = useNow(5_000);

  const accept = useMutation({
    mutationFn: async (offer: EnvelopeOf<'OFFER'>) =>
      send(
        await signAsOperator((did) => buildAccept(did, offer, { now: Date.now(), newId: () => crypto.randomUUID() })),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });

  if (read.isPending) {
    return (
      <p role="status" className="mx-auto max-w-4xl text-sm text-slate-500">
        Loading the thread…
      </p>
    );
  }
  if (!data) {
    return (
      <div className="mx-auto max-w-4xl">
        <Notice
          tone="error"
          title={isNotFound(read.error) ? 'No such thread' : 'Cannot show this thread'}
          action={
            isNotFound(read.error) ? (
              <Link to="/threads" className="text-sm font-medium text-teal-700 hover:underline dark:text-teal-300">
                All threads
              </Link>
            ) : (
              <Button onClick={() => void read.refetch()}>Try again</Button>
            )
          }
        >
          {read.error?.message ?? 'The server sent nothing.'}
        </Notice>
      </div>
    );
  }
  const { state, entries } = data;
  const words = threadStatusWords(state.status, state.ended);
  const me = session?.did;
  const isClient = me !== undefined && state.client === me;
  const mayAccept =
    blocked === null && canAct(session) && isClient && state.status === 'PENDING' && data.expected.includes('ACCEPT');
  const failedCount = verdicts.data
    ? entries.filter(
        (e) => verdicts.data.get(e.rawJson)?.status === 'failed' || data.bridge?.get(e.key)?.kind === 'untrusted',
      ).length
    : 0;

  return (
    <div className="mx-auto max-w-4xl">
      <Link to="/threads" className="text-sm text-teal-700 hover:underline dark:text-teal-300">
        ← All threads
      </Link>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight">
            {/* Named by what it asks (the REQUEST's intent) where the relay kept it. */}
            {state.intent ? displayText(state.intent) : 'Thread'} {source}
          </h1>
          <p className="break-all font-mono text-xs text-slate-500 dark:text-slate-400">{displayText(threadId)}</p>
        </div>
        <div className="flex items-center gap-4">
          {links}
          {status}
        </div>
      </div>
      {banner ? <div className="mt-4">{banner}</div> : null}
      <section
        aria-label="Thread state"
        className="mt-4 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      >
        <p className="text-sm">
          <span className="font-semibold" data-testid="thread-status">
            {words.label}
          </span>
          <span className="text-slate-600 dark:text-slate-400"> · {words.detail}</span>
        </p>
        <dl className="mt-2 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">Client</dt>
          <dd className="text-sm">{state.client ? <Name id={state.client} /> : '—'}</dd>
          <dt className="text-slate-500">Addressed to</dt>
          <dd className="text-sm" data-testid="thread-addressed-to">
            {state.addressedTo ? <Name id={state.addressedTo} /> : 'any agent'}
          </dd>
          <dt className="text-slate-500">Offers</dt>
          <dd>{state.offers?.length ?? 0}</dd>
        </dl>
      </section>
      {failedCount > 0 ? (
        <div className="mt-4">
          <Notice
            tone="error"
            title={`${failedCount} ${failedCount === 1 ? 'message does' : 'messages do'} not verify`}
          >
            This browser or the bridge could not verify them: they were changed after signing, never signed by who they
            claim, or arrived too late. Do not act on them.
          </Notice>
        </div>
      ) : null}
      {accept.isError ? (
        <div className="mt-4">
          <Notice tone="error" title={`${relayName} refused the acceptance`}>
            {relayErrorWords(accept.error)}
          </Notice>
        </div>
      ) : null}
      <ol aria-label="Thread timeline" className="mt-4 space-y-3">
        {entries.map((entry) => {
          const verdict = verdicts.data?.get(entry.rawJson);
          const bridge = data.bridge?.get(entry.key) ?? null;
          const offer = entry.envelope?.type === 'OFFER' ? entry.envelope : null;
          const canAcceptThis =
            mayAccept &&
            offer !== null &&
            verdict?.status === 'verified' &&
            bridge === null &&
            state.offers?.some((o) => o.offerId === offer.id && (o.validUntil === undefined || o.validUntil > now));
          return (
            <ThreadMessage
              key={entry.key}
              entry={entry}
              verdict={verdict}
              bridge={bridge}
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
