// The console's home: everything that waits for this operator, across protocols, most
// urgent first, live. Each item in words, with its age and one action. Long lists are virtualised
// against the window's scroll, so the page scrolls as one and stays narrow on a phone.
import { useMutation } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { InboxItem } from '@shared/contract/inbox';
import { Notice } from '@web/components/ui/notice';
import { StatusDot } from '@web/components/ui/status-dot';
import { RejectReasonDialog } from '@web/components/review/reject-dialog';
import { ReviewKeysHint } from '@web/components/review/review-keys-hint';
import { useReviewKeys, type ReviewKeyAction } from '@web/lib/review/review-keys';
import { roomErrorInWords } from '@web/lib/room-words';
import { approveReviewItem, rejectReviewItem } from '@web/lib/api/rooms-review-decide';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { useNow } from '@web/lib/use-now';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { countLabel } from '@web/lib/inbox/badge';
import { InboxRow } from './inbox-row';
import { POLL_MS, useInbox } from '@web/lib/inbox/inbox-store';
import { summaryLine } from '@web/lib/inbox/inbox-words';
import { useClaim } from '@web/lib/inbox/use-claim';
import { NotifyButton } from '@web/components/inbox/notify-button';

const PROTOCOLS = [
  { name: 'Agent Ops Rooms', what: 'Moderated MQTT rooms: tasks, mic grants, approvals, presence.' },
  { name: 'Agora', what: 'Signed REQUEST → OFFER → ACCEPT → RESULT threads through the relay.' },
  { name: 'RFC 0002 negotiation', what: 'Round-by-round proposals ending in co-signed agreements.' },
  { name: 'OACoP', what: 'Scheduling threads and delegated tasks, with iCalendar export.' },
  { name: 'OSNAP', what: 'The agent directory: capabilities, tools and who may see them.' },
];

type Decision = { item: InboxItem; reject?: string };

export function InboxPage() {
  const inbox = useInbox((s) => s.inbox);
  const status = useInbox((s) => s.status);
  const error = useInbox((s) => s.error);
  const session = useSession();
  const facilitator = canAct(session);
  const did = session?.did ?? '';
  const { item: wanted } = useSearch({ strict: false }) as { item?: string };
  const now = useNow(10_000);
  const [selectedId, setSelectedId] = useState<string | null>(wanted ?? null);
  const [rejecting, setRejecting] = useState<InboxItem | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const decide = useMutation({
    mutationFn: ({ item, reject }: Decision) => {
      if (item.ref.kind !== 'review') throw new Error('Only a review is decided here.');
      const id = Number(item.ref.candidateId);
      return reject === undefined
        ? approveReviewItem(item.ref.roomId, id)
        : rejectReviewItem(item.ref.roomId, id, reject);
    },
  });
  // The stream removes a decided item; until then it is shown as being sent.
  const decidingId = decide.isPending ? decide.variables.item.id : null;
  useClaim(facilitator ? (rejecting?.id ?? decidingId) : null);

  const items = inbox?.items ?? [];
  const index = Math.max(
    0,
    items.findIndex((i) => i.id === selectedId),
  );
  const current = items[Math.min(index, items.length - 1)];

  const [scrollMargin, setScrollMargin] = useState(0);
  const hasItems = items.length > 0;
  useLayoutEffect(() => setScrollMargin(listRef.current?.offsetTop ?? 0), [hasItems]);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => 132,
    overscan: 6,
    scrollMargin,
    getItemKey: (i) => items[i]?.id ?? i,
  });

  // Opened on one item (a notification's click): select it, and bring it into view once it is in.
  const [selectedFor, setSelectedFor] = useState(wanted);
  if (selectedFor !== wanted) {
    setSelectedFor(wanted);
    if (wanted) setSelectedId(wanted);
  }
  const wantedIndex = wanted ? items.findIndex((i) => i.id === wanted) : -1;
  const wantedIsIn = wantedIndex >= 0;
  useEffect(() => {
    if (wantedIsIn) virtualizer.scrollToIndex(wantedIndex, { align: 'center' });
    // Only when the wanted item first shows up or the address changes, not on every later change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, wantedIsIn]);

  const select = (i: number) => {
    const clamped = Math.max(0, Math.min(items.length - 1, i));
    setSelectedId(items[clamped]?.id ?? null);
    virtualizer.scrollToIndex(clamped);
  };
  const approve = (item: InboxItem) => decide.mutate({ item });
  // The review keys work whenever the list is on screen (review-keys.ts, decisions-web.md §28).
  const onKey = (action: ReviewKeyAction): boolean => {
    if (action === 'next') select(index + 1);
    else if (action === 'previous') select(index - 1);
    else if (action === 'approve' && facilitator && current?.kind === 'review') approve(current);
    else if (action === 'reject' && facilitator && current?.kind === 'review') setRejecting(current);
    else return false;
    return true;
  };
  useReviewKeys(onKey, items.length > 0);

  // The item a reason is being typed for was decided elsewhere: the dialog closes and says so.
  const [decidedElsewhere, setDecidedElsewhere] = useState<string | null>(null);
  if (rejecting && inbox && !items.some((i) => i.id === rejecting.id)) {
    setRejecting(null);
    setDecidedElsewhere(rejecting.id);
  }
  const live = status === 'live';
  return (
    <div className="mx-auto w-full max-w-3xl">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Inbox</h1>
        {inbox ? (
          <span data-testid="inbox-count" className="text-sm text-slate-600 dark:text-slate-400">
            {items.length === 0 ? 'nothing waiting' : `${countLabel(items.length)} waiting`}
          </span>
        ) : null}
        <span role="status" data-testid="inbox-status">
          <StatusDot
            tone={live ? 'ok' : status === 'reconnecting' || status === 'polling' ? 'warn' : 'idle'}
            label={
              live
                ? 'Live'
                : status === 'polling'
                  ? `Refreshing every ${POLL_MS / 1000} s`
                  : status === 'reconnecting'
                    ? 'Reconnecting…'
                    : 'Connecting…'
            }
          />
        </span>
        <span className="ml-auto flex flex-wrap items-center gap-3 text-sm">
          <NotifyButton />
          <Link to="/settings/inbox" className="text-teal-700 hover:underline dark:text-teal-300">
            Notification settings
          </Link>
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        What waits for you across rooms, negotiations, scheduling and services, most urgent first.
        {facilitator && items.some((i) => i.kind === 'review') ? <ReviewKeysHint /> : null}
      </p>
      {!facilitator && session ? (
        <div className="mt-4">
          <Notice tone="info" title="You are an observer">
            You see what waits for the facilitators; approving, rejecting and answering are for them.
          </Notice>
        </div>
      ) : null}
      {error && !inbox ? (
        <div className="mt-4">
          <Notice tone="error" title="The inbox did not load">
            {error} It keeps trying on its own.
          </Notice>
        </div>
      ) : null}
      {decidedElsewhere ? (
        <p role="alert" data-testid="lost-race" className="mt-3 text-sm text-amber-900 dark:text-amber-200">
          Another facilitator decided that candidate while you wrote your reason; yours was not sent.{' '}
          <button type="button" className="underline" onClick={() => setDecidedElsewhere(null)}>
            Dismiss
          </button>
        </p>
      ) : null}
      {decide.isError ? (
        <p role="alert" className="mt-3 text-sm text-rose-700 dark:text-rose-300">
          {roomErrorInWords(decide.error)}
        </p>
      ) : null}

      {inbox && items.length === 0 ? (
        <section aria-labelledby="inbox-empty" className="mt-8">
          <h2 id="inbox-empty" className="text-xl font-semibold">
            Nothing needs you
          </h2>
          <p data-testid="inbox-summary" className="mt-1 text-slate-600 dark:text-slate-400">
            {summaryLine(inbox.summary)}
          </p>
          {/* Next steps, so a first run's empty inbox leads somewhere (decisions-web.md §40). */}
          <h3 className="mt-8 text-sm font-medium tracking-wide text-slate-500 uppercase">Next steps</h3>
          <ul aria-label="Next steps" className="mt-3 grid gap-3 sm:grid-cols-3">
            {[
              {
                to: '/demo',
                title: 'Run the guided demo',
                what: 'A task, a negotiation and a meeting, in plain words.',
              },
              { to: '/fleet', title: 'Connect an agent', what: 'Give it a credential and the command to connect.' },
              ...(facilitator
                ? [{ to: '/settings/operators', title: 'Invite a colleague', what: 'A one-time link, with a role.' }]
                : []),
            ].map((step) => (
              <li key={step.to}>
                <Link
                  to={step.to}
                  data-testid="next-step"
                  className="block h-full rounded-lg border border-teal-200 bg-teal-50/60 p-4 hover:border-teal-400 dark:border-teal-900 dark:bg-teal-950/30 dark:hover:border-teal-700"
                >
                  <span className="font-medium text-teal-800 dark:text-teal-200">{step.title} →</span>
                  <span className="mt-1 block text-sm text-slate-600 dark:text-slate-400">{step.what}</span>
                </Link>
              </li>
            ))}
          </ul>
          <h3 className="mt-8 text-sm font-medium uppercase tracking-wide text-slate-500">
            Protocols this console speaks
          </h3>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2">
            {PROTOCOLS.map((p) => (
              <li
                key={p.name}
                className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
              >
                <p className="font-medium">{p.name}</p>
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{p.what}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {!inbox && !error ? <p className="mt-6 text-sm text-slate-500">Loading…</p> : null}

      {items.length > 0 ? (
        <div
          ref={listRef}
          role="feed"
          tabIndex={0}
          aria-label="Items waiting for you"
          aria-busy={!live}
          className="relative mt-4 overflow-hidden rounded-lg border border-slate-200 outline-offset-2 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-slate-800"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index];
            if (!item) return null;
            return (
              <div
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                className="absolute left-0 top-0 w-full border-b border-slate-200 dark:border-slate-800"
                style={{ transform: `translateY(${row.start - scrollMargin}px)` }}
              >
                <InboxRow
                  item={item}
                  now={now}
                  active={item === current}
                  canAct={facilitator}
                  myDid={did}
                  deciding={decidingId === item.id}
                  onSelect={() => setSelectedId(item.id)}
                  onApprove={() => approve(item)}
                  onReject={() => setRejecting(item)}
                />
              </div>
            );
          })}
        </div>
      ) : null}
      <RejectReasonDialog
        agentId={rejecting?.ref.kind === 'review' ? rejecting.ref.agentId : null}
        onClose={() => setRejecting(null)}
        returnFocusTo={listRef}
        onReject={(reason) => {
          if (rejecting) decide.mutate({ item: rejecting, reject: reason });
          setRejecting(null);
        }}
      />
    </div>
  );
}
