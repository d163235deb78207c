// One inbox item: the server's sentence, the agent's words as text (clamped, "show all"), its age,
// its room, and its one action: approve/reject inline for a review, an answer box for a question,
// a link to the place to act for the rest; and "Dismiss", which takes it off every operator's inbox
// (decisions-server.md §75). Observers see the same row with the actions disabled.
import { When } from '@web/components/when';
import { Link } from '@tanstack/react-router';
import type { InboxItem } from '@shared/contract/inbox';
import { Button } from '@web/components/ui/button';
import { useMutation } from '@tanstack/react-query';
import { say } from '@web/lib/mqtt/publish';
import { openRoom } from '@web/lib/mqtt/room-connection';
import { useLiveRooms } from '@web/lib/mqtt/room-store';
import { roomErrorInWords } from '@web/lib/room-words';
import { useEffect, useId, useState } from 'react';
import { roomOf } from '@web/lib/inbox/inbox-state';
import { claimedBy, KIND_LABEL, OPEN_LABEL, URGENCY_LABEL } from '@web/lib/inbox/inbox-words';
import { useClaim } from '@web/lib/inbox/use-claim';
import { dismissInboxItem } from '@web/lib/api/inbox';
import { errorInWords } from '@web/lib/api/error-words';
import { fitsLimit } from '@shared/contract/text-limits';
import { CharCounter } from '@web/components/ui/char-counter';
import { LongText } from '@web/components/ui/long-text';
import { displayText } from '@web/lib/display-text';
import { collapse } from '@web/lib/long-text';
import { Name } from '@web/components/name';
import { AgreementTerms } from '@web/components/agreement-terms';
import { messageTypeWords } from '@shared/aor/message-type-words';
import { budgetLeftWords } from '@web/lib/review/review-words';
import { firstWords } from '@web/lib/names/item-names';

/** Quotes longer than this are clamped to three lines until "show all". */
const CLAMP_CHARS = 160;
const OBSERVER = 'Observers see what waits; acting is for facilitators.';

const URGENCY_TONE = {
  now: 'border-rose-500 dark:border-rose-400',
  soon: 'border-amber-500 dark:border-amber-400',
  info: 'border-slate-300 dark:border-slate-600',
} as const;

export interface InboxRowProps {
  item: InboxItem;
  now: number;
  active: boolean;
  canAct: boolean;
  myDid: string;
  /** A decision under way for this item: the row says so and its buttons rest. */
  deciding: boolean;
  onSelect: () => void;
  onApprove: () => void;
  onReject: () => void;
}

export function InboxRow({ item, now, active, canAct, myDid, deciding, onSelect, onApprove, onReject }: InboxRowProps) {
  const room = roomOf(item);
  const claim = claimedBy(item, myDid, now);
  const [answering, setAnswering] = useState(false);
  return (
    <article
      data-testid="inbox-item"
      data-kind={item.kind}
      aria-current={active || undefined}
      aria-label={item.title}
      onClick={onSelect}
      className={`min-w-0 border-l-4 bg-white px-4 py-3 dark:bg-slate-900 ${URGENCY_TONE[item.urgency]} ${active ? 'ring-2 ring-inset ring-teal-600/60 dark:ring-teal-400/60' : ''}`}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
        <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          {KIND_LABEL[item.kind]}
        </span>
        <span>{URGENCY_LABEL[item.urgency]}</span>
        {room ? <span className="min-w-0 truncate font-mono">{displayText(room)}</span> : null}
        <When at={item.since} form="relative" />
        {claim ? (
          <span data-testid="inbox-claim" className="font-medium text-amber-700 dark:text-amber-300">
            {claim}
          </span>
        ) : null}
      </div>
      <Subject item={item} />
      {item.quote ? <Quote text={item.quote} /> : null}
      {item.ref.kind === 'review' && typeof item.ref.budgetLeft === 'number' ? (
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" data-testid="inbox-budget">
          {budgetLeftWords(item.ref.budgetLeft)}
        </p>
      ) : null}
      {item.ref.kind === 'cosign' && item.ref.terms ? (
        <AgreementTerms
          terms={item.ref.terms}
          category={item.ref.category}
          ownManifest={item.ref.service === null}
          className="mt-2"
        />
      ) : null}
      <div className="mt-2 flex flex-wrap items-center gap-2">
        {item.ref.kind === 'review' ? (
          <>
            <Button
              size="sm"
              variant="primary"
              disabled={!canAct || deciding}
              title={canAct ? undefined : OBSERVER}
              onClick={(e) => {
                e.stopPropagation();
                onApprove();
              }}
            >
              Approve
            </Button>
            <Button
              size="sm"
              disabled={!canAct || deciding}
              title={canAct ? undefined : OBSERVER}
              onClick={(e) => {
                e.stopPropagation();
                onReject();
              }}
            >
              Reject
            </Button>
            {deciding ? <span className="text-xs text-slate-500">Sending…</span> : null}
          </>
        ) : item.ref.kind === 'question' ? (
          <Button
            size="sm"
            variant={answering ? 'ghost' : 'primary'}
            disabled={!canAct}
            title={canAct ? undefined : OBSERVER}
            aria-expanded={answering}
            onClick={(e) => {
              e.stopPropagation();
              setAnswering((a) => !a);
            }}
          >
            {answering ? 'Close' : 'Answer'}
          </Button>
        ) : null}
        <Link
          to={item.href}
          className="text-sm text-teal-700 underline-offset-2 hover:underline dark:text-teal-300"
          onClick={(e) => e.stopPropagation()}
        >
          {OPEN_LABEL[item.kind]}
        </Link>
        {canAct ? <DismissButton itemId={item.id} title={item.title} /> : null}
        {!canAct && (item.ref.kind === 'review' || item.ref.kind === 'question') ? (
          <span className="text-xs text-slate-500">{OBSERVER}</span>
        ) : null}
      </div>
      {answering && item.ref.kind === 'question' ? (
        <AnswerBox
          itemId={item.id}
          roomId={item.ref.roomId}
          agentId={item.ref.agentId}
          did={myDid}
          onDone={() => setAnswering(false)}
        />
      ) : null}
    </article>
  );
}

/** Dismiss: the item leaves with the stream's `remove`; a refusal is said in words. */
function DismissButton({ itemId, title }: { itemId: string; title: string }) {
  const dismiss = useMutation({ mutationFn: () => dismissInboxItem(itemId) });
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Dismiss: ${title}`}
        busy={dismiss.isPending}
        onClick={(e) => {
          e.stopPropagation();
          dismiss.mutate();
        }}
      >
        Dismiss
      </Button>
      {dismiss.isError ? (
        <span role="alert" className="text-xs text-rose-700 dark:text-rose-300">
          {errorInWords(dismiss.error)}
        </span>
      ) : null}
    </>
  );
}

/**
 * What the item is about, in words (decisions-web.md §32). A review names the agent, the message
 * type and the task's goal; a co-signature the agreement and its counterparty by name. Other kinds
 * read the server's sentence.
 */
function Subject({ item }: { item: InboxItem }) {
  const ref = item.ref;
  const className = 'mt-1 font-medium text-slate-900 dark:text-slate-100';
  if (ref.kind === 'review' && ref.messageType !== undefined) {
    const goal = firstWords(ref.taskGoal, 12);
    return (
      <p className={className} data-testid="inbox-subject">
        <Name id={ref.agentId} />
        {'’s '}
        <span data-testid="inbox-type" title={ref.messageType ?? undefined}>
          {messageTypeWords(ref.messageType)}
        </span>
        {' for '}
        {ref.taskId ? (
          <span data-testid="inbox-goal">
            <Name id={ref.taskId} label={goal ? `“${goal}”` : 'a task'} />
          </span>
        ) : (
          'a task'
        )}
        {' waits for review'}
      </p>
    );
  }
  if (ref.kind === 'cosign' && ref.counterparty) {
    return (
      <p className={className} data-testid="inbox-subject">
        The {ref.category ?? ''} agreement with <Name id={ref.counterparty} /> waits for your co-signature
      </p>
    );
  }
  return (
    <p className={className}>
      <LongText text={item.title} />
    </p>
  );
}

/** Agent-written text, as text; long text clamped until asked for. */
function Quote({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const id = useId();
  const long = text.length > CLAMP_CHARS;
  return (
    <div className="mt-1 text-sm text-slate-700 dark:text-slate-300">
      <blockquote
        id={id}
        data-testid="inbox-quote"
        className={`whitespace-pre-wrap [overflow-wrap:anywhere] border-l-2 border-slate-200 pl-2 dark:border-slate-700 ${long && !all ? 'line-clamp-3' : ''}`}
      >
        {/* Clamped, the row holds only the start of a long quote (decisions-web.md §25). */}
        {all ? text : collapse(text).head}
      </blockquote>
      {long ? (
        <Button
          variant="link"
          size="sm"
          aria-controls={id}
          aria-expanded={all}
          onClick={(e) => {
            e.stopPropagation();
            setAll((a) => !a);
          }}
        >
          {all ? 'Show less' : 'Show all'}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * The answer to an agent's question goes out as the room's `say`, mentioning the agent, over the
 * same broker connection the room page uses (opened for as long as the box is).
 */
function AnswerBox(props: { itemId: string; roomId: string; agentId: string; did: string; onDone: () => void }) {
  const { itemId, roomId, agentId, did, onDone } = props;
  const [text, setText] = useState('');
  const live = useLiveRooms((s) => s.status === 'live');
  const id = useId();
  useClaim(itemId);
  useEffect(() => openRoom(roomId), [roomId]);
  // The answer is a `say`: counted as the room's say is, mention included (decisions-web.md §26).
  const sent = `@${agentId} ${text.trim()}`;
  const fits = fitsLimit('message', sent);
  const send = useMutation({
    mutationFn: (t: string) => say(roomId, did, `@${agentId} ${t}`),
    onSuccess: onDone,
  });
  return (
    <form
      className="mt-2 space-y-1"
      onClick={(e) => e.stopPropagation()}
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() && live && fits) send.mutate(text.trim());
      }}
    >
      <label htmlFor={id} className="block text-xs text-slate-600 dark:text-slate-400">
        Your answer to {displayText(agentId)} (sent to the room, mentioning them)
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          autoFocus
          value={text}
          autoComplete="off"
          onChange={(e) => setText(e.target.value)}
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
        />
        <Button
          type="submit"
          size="sm"
          variant="primary"
          disabled={!text.trim() || !live || !fits}
          busy={send.isPending}
        >
          Send
        </Button>
      </div>
      <CharCounter kind="message" text={sent} />
      {!live ? <p className="text-xs text-slate-500">Connecting to the room…</p> : null}
      {send.isError ? (
        <p role="alert" className="text-xs text-rose-700 dark:text-rose-300">
          {roomErrorInWords(send.error)}
        </p>
      ) : null}
    </form>
  );
}
