// Review mode: candidates that passed the gateway's rules wait here, each with
// the agent's remaining budget and time. Mouse or keys: J/K move, A approves, R asks for a reason
// in a small dialog (Enter rejects). Keys work whenever the queue is on screen, never while typing
// in a field or with a dialog open (review-keys.ts, decisions-web.md §28); the list stays mounted
// when it empties, so focus stays put.
// Every facilitator's queue refreshes on switchboard/rooms/{r}/review notices.
import { Name } from '@web/components/name';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { activeGrantsQuery } from '@web/lib/api/rooms-grants';
import { approveReviewItem, rejectReviewItem } from '@web/lib/api/rooms-review-decide';
import { allReviewQuery, pendingReviewQuery, type ReviewItem } from '@web/lib/api/rooms-review';
import { useMemo, useRef, useState } from 'react';
import { RejectReasonDialog } from '@web/components/review/reject-dialog';
import { useReviewKeys, type ReviewKeyAction } from '@web/lib/review/review-keys';
import { ReviewKeysHint } from '@web/components/review/review-keys-hint';
import { GrantMeter } from './grant-meter';
import { MessageContent, plainText, TypeBadge, summarize } from './message-content';
import { TaskName } from '@web/components/task-name';
import { messageTypeWords } from '@shared/aor/message-type-words';
import { budgetLeftWords } from '@web/lib/review/review-words';
import { displayText } from '@web/lib/display-text';
import { useNow } from '@web/lib/use-now';
import { roomErrorInWords } from '@web/lib/room-words';
import { When } from '@web/components/when';
import { PresenceAvatars } from '@web/components/presence-avatars';
import { ApiError } from '@web/lib/api/http';
import { useSession } from '@web/lib/identity/use-session';
import { decidedDetail, decidedInWords } from '@web/lib/operators/operator-words';
import { reviewItemId } from '@shared/inbox/item-ids';
import { useInbox } from '@web/lib/inbox/inbox-store';
import { claimedBy } from '@web/lib/inbox/inbox-words';
import { useClaim } from '@web/lib/inbox/use-claim';
import type { InboxItem } from '@shared/contract/inbox';
import type { DecidedDetail } from '@shared/contract/operators';

const RECENT = 5;

export function ReviewQueue({ roomId, canFacilitate }: { roomId: string; canFacilitate: boolean }) {
  const queue = useQuery(pendingReviewQuery(roomId));
  const all = useQuery(allReviewQuery(roomId));
  const grants = useQuery(activeGrantsQuery(roomId));
  const queryClient = useQueryClient();
  const now = useNow(1_000);
  const me = useSession()?.did ?? null;
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [rejecting, setRejecting] = useState<ReviewItem | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  // The inbox's soft claims, on the same items (shared/inbox/item-ids.ts): typing a reason here
  // shows the others "Ana is deciding…", in their queue and in their inbox.
  useClaim(canFacilitate && rejecting ? reviewItemId(roomId, rejecting.id) : null);
  const inboxItems = useInbox((s) => s.inbox?.items);
  const inboxById = useMemo(() => new Map<string, InboxItem>((inboxItems ?? []).map((i) => [i.id, i])), [inboxItems]);
  const claimOn = (item: ReviewItem): string | null => {
    const held = inboxById.get(reviewItemId(roomId, item.id));
    return held && me ? claimedBy(held, me, now) : null;
  };
  // Items this facilitator lost to another (decisions-web.md §38): each keeps its place in words,
  // with who decided it and when, until dismissed, so the note never reads as the next item's.
  const [lost, setLost] = useState<readonly { item: ReviewItem; detail: DecidedDetail }[]>([]);
  const addLost = (item: ReviewItem, detail: DecidedDetail) =>
    setLost((l) => [...l.filter((x) => x.item.id !== item.id), { item, detail }]);
  const decide = useMutation({
    mutationFn: (d: { item: ReviewItem; reject?: string }) =>
      d.reject === undefined ? approveReviewItem(roomId, d.item.id) : rejectReviewItem(roomId, d.item.id, d.reject),
    onError: (error, d) => {
      const detail = error instanceof ApiError && error.status === 409 ? decidedDetail(error.details) : undefined;
      if (detail) addLost(d.item, detail);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['rooms', roomId, 'review'] }),
  });
  // The item a reason is being typed for was decided elsewhere: the dialog closes with the note.
  if (rejecting && queue.isSuccess && !queue.data.some((i) => i.id === rejecting.id)) {
    const decided = all.data?.find((i) => i.id === rejecting.id);
    setRejecting(null);
    addLost(rejecting, {
      decision: decided?.status ?? 'decided',
      decidedBy:
        decided?.decidedBy && decided.decidedByName ? { did: decided.decidedBy, name: decided.decidedByName } : null,
      decidedAt: decided?.decidedAt ?? null,
    });
  }
  const items = (queue.data ?? []).filter((i) => !(decide.isPending && decide.variables.item.id === i.id));
  // The selection follows the item; when it is decided, the one now in its place is selected.
  const index = Math.max(
    0,
    items.findIndex((i) => i.id === selectedId),
  );
  const current = items[Math.min(index, items.length - 1)];
  const recent = (all.data ?? [])
    .filter((i) => i.status !== 'pending')
    .sort((a, b) => (b.decidedAt ?? 0) - (a.decidedAt ?? 0))
    .slice(0, RECENT);

  const select = (i: number) => setSelectedId(items[Math.max(0, Math.min(items.length - 1, i))]?.id ?? null);
  const approve = (item: ReviewItem) => {
    select(items.indexOf(item) + 1 < items.length ? items.indexOf(item) + 1 : items.indexOf(item) - 1);
    decide.mutate({ item });
  };
  const openReject = (item: ReviewItem) => setRejecting(item);

  const onKey = (action: ReviewKeyAction): boolean => {
    if (action === 'next') select(index + 1);
    else if (action === 'previous') select(index - 1);
    else if (action === 'approve' && current) approve(current);
    else if (action === 'reject' && current) openReject(current);
    else return false;
    return true;
  };
  useReviewKeys(onKey, canFacilitate);

  return (
    <section
      aria-labelledby="review-heading"
      className="rounded-lg border border-amber-300 bg-amber-50/50 dark:border-amber-900/60 dark:bg-amber-950/20"
    >
      <h2
        id="review-heading"
        className="border-b border-amber-200 px-4 py-2 text-sm font-semibold dark:border-amber-900/60"
      >
        Review queue <span className="font-normal text-slate-600 dark:text-slate-400">({items.length} waiting)</span>
        {canFacilitate ? <ReviewKeysHint /> : null}
      </h2>
      <div className="border-b border-amber-200 px-4 py-1.5 dark:border-amber-900/60">
        <PresenceAvatars where={`/rooms/${encodeURIComponent(roomId)}/review`} label="Operators on this review queue" />
      </div>
      <ol
        ref={listRef}
        tabIndex={0}
        aria-label="Candidates waiting for review"
        className="divide-y divide-amber-100 outline-offset-2 focus-visible:outline-2 focus-visible:outline-teal-600 dark:divide-amber-900/40"
      >
        {lost.map(({ item, detail }) => (
          <li key={`lost-${item.id}`} data-testid="lost-item" className="border-l-4 border-amber-500 px-4 py-2">
            <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
              <span className="min-w-0 font-medium text-slate-800 dark:text-slate-200">
                {displayText(item.agentId)}
              </span>
              <TypeBadge type={summarize(item.envelope).messageType} />
              <span className="min-w-0 truncate">{displayText(plainText(item.envelope))}</span>
              <Button
                size="sm"
                className="ml-auto"
                onClick={() => setLost((l) => l.filter((x) => x.item.id !== item.id))}
              >
                Dismiss
              </Button>
            </div>
            <p role="alert" data-testid="lost-race" className="mt-1 text-sm text-amber-900 dark:text-amber-200">
              {decidedInWords(detail, now, me)} Your decision was not applied.
            </p>
          </li>
        ))}
        {items.length === 0 ? (
          <li className="px-4 py-3 text-sm text-slate-600 dark:text-slate-400">
            {queue.isPending ? 'Loading…' : 'Nothing waits for review.'}
          </li>
        ) : null}
        {items.map((item) => {
          const { messageType } = summarize(item.envelope);
          const active = item === current;
          const grant = grants.data?.find((g) => g.agentId === item.agentId && g.taskId === item.taskId);
          const claim = claimOn(item);
          return (
            <li
              key={item.id}
              aria-current={active || undefined}
              data-testid="review-item"
              onClick={() => setSelectedId(item.id)}
              className={`border-l-4 px-4 py-2 ${active ? 'border-teal-600 bg-amber-100/70 dark:border-teal-400 dark:bg-amber-900/30' : 'border-transparent'}`}
            >
              {/* The subject first, in words (decisions-web.md §32): who, what kind, for which task. */}
              <p className="text-sm text-slate-900 dark:text-slate-100" data-testid="review-subject">
                <Name id={item.agentId} className="font-medium" />
                {'’s '}
                <span data-testid="review-type" title={messageType ?? undefined}>
                  {messageTypeWords(messageType)}
                </span>
                {' for '}
                <TaskName roomId={roomId} taskId={item.taskId} />
              </p>
              <div className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
                <span className="text-slate-500">
                  <When at={item.submittedAt} form="relative" />
                </span>
                {claim ? (
                  <span data-testid="review-claim" className="font-medium text-amber-700 dark:text-amber-300">
                    {claim}
                  </span>
                ) : null}
                <span className="ml-auto flex gap-1">
                  <Button
                    size="sm"
                    disabled={!canFacilitate}
                    onClick={() => approve(item)}
                    aria-label={`Approve ${item.agentId}’s ${messageTypeWords(messageType)}`}
                  >
                    Approve
                  </Button>
                  <Button
                    size="sm"
                    disabled={!canFacilitate}
                    onClick={() => openReject(item)}
                    aria-label={`Reject ${item.agentId}’s ${messageTypeWords(messageType)}`}
                  >
                    Reject
                  </Button>
                </span>
              </div>
              <div className="mt-1">
                <MessageContent envelope={item.envelope} raw={item.raw} />
              </div>
              <div className="mt-1 text-xs text-slate-600 dark:text-slate-400" data-testid="review-budget">
                {grant ? (
                  <span className="flex flex-wrap items-center gap-x-2">
                    <span data-testid="review-budget-left">
                      {budgetLeftWords(grant.maxMessages - grant.spent, grant.maxMessages)}
                    </span>
                    <GrantMeter grant={grant} now={now} compact />
                  </span>
                ) : (
                  'No live grant: approving will be refused by the gateway.'
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {decide.isError && !(decide.error instanceof ApiError && decide.error.status === 409) ? (
        <p role="alert" className="px-4 pb-2 text-sm text-rose-700 dark:text-rose-300">
          {roomErrorInWords(decide.error)}
        </p>
      ) : null}
      {recent.length ? (
        <div className="border-t border-amber-200 px-4 py-2 dark:border-amber-900/60">
          <h3 className="text-xs font-semibold text-slate-600 dark:text-slate-300">Latest decisions</h3>
          <ul aria-label="Latest review decisions" aria-live="polite" className="mt-1 space-y-0.5 text-xs">
            {recent.map((i) => (
              <li key={i.id} data-testid="review-decision" className="flex gap-2">
                <span
                  className={
                    i.status === 'approved'
                      ? 'font-medium text-emerald-700 dark:text-emerald-300'
                      : i.status === 'rejected'
                        ? 'font-medium text-rose-700 dark:text-rose-300'
                        : 'font-medium text-slate-500'
                  }
                >
                  {i.status === 'approved' ? 'Approved' : i.status === 'rejected' ? 'Rejected' : 'Expired'}
                </span>
                <span className="min-w-0 flex-1 truncate">
                  {displayText(i.agentId)} · <TaskName roomId={roomId} taskId={i.taskId} plain />
                  {i.reason ? ` · “${i.reason}”` : ''}
                </span>
                <span className="shrink-0 text-slate-500" title={i.decidedBy ?? undefined}>
                  {i.decidedByName ??
                    (i.decidedBy ? (
                      i.decidedBy.startsWith('did:') ? (
                        <Name id={i.decidedBy} plain />
                      ) : (
                        displayText(i.decidedBy)
                      )
                    ) : (
                      ''
                    ))}{' '}
                  {i.decidedAt ? <When at={i.decidedAt} /> : ''}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <RejectReasonDialog
        agentId={rejecting?.agentId ?? null}
        onClose={() => setRejecting(null)}
        returnFocusTo={listRef}
        onReject={(reason) => {
          if (!rejecting) return;
          select(
            items.indexOf(rejecting) + 1 < items.length ? items.indexOf(rejecting) + 1 : items.indexOf(rejecting) - 1,
          );
          decide.mutate({ item: rejecting, reject: reason });
          setRejecting(null);
        }}
      />
    </section>
  );
}
