// One scheduling thread, live (polled read model): who answered at which revision, the heat-map,
// the suggested slot or "no common slot" with the nearest alternatives, approve (Confirm at
// revision + 1), cancel with a reason, .ics export and import. Everything signed in this browser.
import { Term } from '@web/components/term';
import { durationWords } from '@web/lib/time-words';
import { StoryLink } from '@web/components/story-link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LongText } from '@web/components/ui/long-text';
import { Link, useParams } from '@tanstack/react-router';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import type { SchedulingThread } from '@shared/contract/console';
import { CodedError, type Result } from '@shared/errors';
import type { CandidateSlot } from '@shared/oacop/intersect-availability';
import type { Slot } from '@shared/oacop/messages';
import { planCancellation, planConfirmation } from '@shared/oacop/scheduling-actions';
import { directoryQuery } from '@web/lib/api/agora-agents';
import { schedulingThreadQuery } from '@web/lib/api/scheduling-thread';
import { downloadTextFile } from '@web/lib/identity/download-file';
import { operatorDid } from '@web/lib/identity/sign-agora-envelope';
import { oacopAgents } from '@web/lib/oacop/oacop-directory';
import { Name } from '@web/components/name';
import { SlotAttendees } from '@web/components/slot-attendees';
import { useNames } from '@web/lib/names/use-names';
import { oacopErrorWords } from '@web/lib/oacop/oacop-words';
import { sendCarriers } from '@web/lib/oacop/send-carriers';
import type { DecidedDetail } from '@shared/contract/operators';
import { ApiError } from '@web/lib/api/http';
import { checkStanding } from '@web/lib/api/scheduling-standing';
import { decidedDetail, decidedInWords } from '@web/lib/operators/operator-words';
import { useNow } from '@web/lib/use-now';
import { browserTimeZone } from '@web/lib/oacop/zone-labels';
import { useMemo, useRef, useState } from 'react';
import { HeatMap } from './heat-map';
import { heatMapGrid, type HeatMapRow } from './heat-map-grid';
import { IcsImport } from './ics-import';
import { icsFileName, threadIcs } from './thread-ics';
import {
  approveSlotLabel,
  namesSentence,
  slotAttendees,
  slotInZoneWords,
  ZONE_UNKNOWN,
} from '@web/lib/oacop/slot-words';

const PHASE_WORDS: Record<string, string> = {
  INVITED: 'Invited, no answer yet',
  INTERESTED: 'Interested',
  TENTATIVE: 'Tentative',
  DECLINED: 'Declined',
  CONFIRMED: 'Confirmed',
  CANCELLED: 'Cancelled',
};

export function SchedulingThreadPage() {
  const { threadId } = useParams({ from: '/console/scheduling/$threadId' });
  const thread = useQuery(schedulingThreadQuery(threadId));
  const directory = useQuery(directoryQuery);
  const me = useQuery({ queryKey: ['identity', 'operator-did'], queryFn: () => operatorDid() });
  const [imported, setImported] = useState<Record<string, readonly Slot[]>>({});

  if (thread.isPending) return <p className="text-sm text-slate-500">Loading the thread…</p>;
  if (thread.isError) {
    const e = thread.error as { code?: string; message: string };
    return (
      <Notice
        tone="error"
        title={e.code === 'NOT_FOUND' ? 'No such scheduling thread' : 'The thread could not be read'}
      >
        {e.message}{' '}
        <Link to="/scheduling" className="underline">
          Back to scheduling
        </Link>
      </Notice>
    );
  }
  return (
    <ThreadView
      view={thread.data}
      agents={oacopAgents(directory.data ?? [])}
      me={me.data ?? null}
      imported={imported}
      onImport={(did, busy) => setImported({ ...imported, [did]: busy })}
    />
  );
}

interface ThreadViewProps {
  readonly view: SchedulingThread;
  readonly agents: ReturnType<typeof oacopAgents>;
  readonly me: string | null;
  readonly imported: Readonly<Record<string, readonly Slot[]>>;
  readonly onImport: (did: string, busy: readonly Slot[]) => void;
}

function ThreadView({ view, agents, me, imported, onImport }: ThreadViewProps) {
  const { state } = view;
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  // "Cancel the meeting" with no reason marks the field and says what it needs, rather than
  // nothing happening where the operator is looking.
  const [reasonMissing, setReasonMissing] = useState(false);
  const reasonField = useRef<HTMLInputElement>(null);
  const [refusal, setRefusal] = useState<{ code: string; message: string } | null>(null);
  // Another operator's Confirm or Cancel landed first (decisions-server.md §57).
  const [lost, setLost] = useState<DecidedDetail | null>(null);
  const operatorZone = browserTimeZone();
  // Names from the naming service (decisions-web.md §29), as on every other screen.
  const { nameOf: name } = useNames();
  const now = useNow(60_000);
  // An attendee's zone is the one their directory manifest gives; one that gives none is said to be
  // unknown rather than taken as UTC (decisions-web.md §45).
  const zones: Record<string, string> = Object.fromEntries(
    view.participants.flatMap((p) => {
      const zone = agents.find((a) => a.did === p.did)?.timeZone;
      return zone ? [[p.did, zone]] : [];
    }),
  );
  const isInitiator = me !== null && me === state.initiator;
  const recipients = view.participants.map((p) => p.did);
  const suggestion = view.suggestion !== null && 'candidates' in view.suggestion ? view.suggestion : null;
  const best = suggestion?.candidates[0];
  const finalSlot = state.status === 'PROPOSED' ? undefined : state.finalSlot;

  const rows: HeatMapRow[] = useMemo(
    () => [
      ...view.participants.map((p) => ({
        did: p.did,
        offered:
          p.response === undefined ||
          (p.response.respondingToRevision !== state.revision && state.status === 'PROPOSED')
            ? null
            : p.response.status === 'DECLINED'
              ? ('declined' as const)
              : p.response.slots,
        ...(imported[p.did] ? { importedBusy: imported[p.did] } : {}),
      })),
      ...(imported.me ? [{ did: 'me', offered: null, importedBusy: imported.me }] : []),
    ],
    [view.participants, imported, state.revision, state.status],
  );
  const grid = state.constraints.timeWindow ? heatMapGrid(state.constraints.timeWindow, rows) : null;
  const names = { ...Object.fromEntries(view.participants.map((p) => [p.did, name(p.did)])), me: 'You (imported)' };

  const act = useMutation({
    mutationFn: async (plan: () => Result<{ message: Parameters<typeof sendCarriers>[0] }>) => {
      const planned = plan();
      if (!planned.ok) throw new CodedError(planned.error.code, planned.error.message, planned.error.details);
      await checkStanding(view.threadId, state.revision);
      await sendCarriers(planned.value.message, recipients);
    },
    onMutate: () => {
      setRefusal(null);
      setLost(null);
    },
    onError: (error: unknown) => {
      const detail = error instanceof ApiError && error.status === 409 ? decidedDetail(error.details) : undefined;
      if (detail) return setLost(detail);
      const e = error as { code?: string; message?: string };
      setRefusal({ code: e.code ?? 'ERROR', message: e.message ?? String(error) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['oacop'] }),
  });

  const approve = (slot: Slot) => act.mutate(() => planConfirmation(state, { start: slot.start, end: slot.end }));
  const cancel = () => {
    if (!me) return setRefusal({ code: 'NO_KEY', message: '' });
    if (!reason.trim()) {
      setReasonMissing(true);
      reasonField.current?.focus();
      return;
    }
    act.mutate(() => planCancellation(state, me, reason.trim()));
  };
  const exportIcs = () => {
    const ics = threadIcs(state, Date.now());
    if (!ics.ok) return setRefusal({ code: ics.error.code, message: ics.error.message });
    downloadTextFile(icsFileName(state.object.title), ics.value, 'text/calendar');
  };

  return (
    <div className="space-y-6">
      <div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <Link to="/scheduling" className="text-sm text-teal-700 hover:underline dark:text-teal-300">
            ← Scheduling
          </Link>
          <StoryLink kind="scheduling" id={view.threadId} />
        </div>
        <h1 className="mt-1 text-xl font-semibold">
          <LongText text={state.object.title ?? 'Untitled meeting'} />
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          <span data-testid="thread-status">{state.status}</span> ·{' '}
          <Term words="version" term="revision (OACoP): each change to the proposal counts one up" />{' '}
          <span data-testid="thread-revision">{state.revision}</span>
          {state.object.duration ? (
            <>
              {' · '}
              <abbr title={state.object.duration} className="no-underline" data-testid="thread-duration">
                {durationWords(state.object.duration)}
              </abbr>
            </>
          ) : null}
          {state.object.location ? (
            <>
              {' · '}
              <LongText text={state.object.location} />
            </>
          ) : null}{' '}
          · proposed by <Name id={state.initiator} />
        </p>
        {finalSlot ? (
          <p className="mt-1 text-sm" data-testid="final-slot">
            {state.status === 'CANCELLED' ? 'Was ' : 'Confirmed for '} {slotInZoneWords(finalSlot, operatorZone, now)}
            {operatorZone === 'UTC' ? null : ` · ${slotInZoneWords(finalSlot, 'UTC', now)}`}
          </p>
        ) : null}
        {state.status === 'CANCELLED' ? (
          <p className="mt-1 text-sm" data-testid="cancel-reason">
            Cancelled by {state.cancelledBy ? <Name id={state.cancelledBy} /> : 'someone'}: “
            <LongText text={state.reason ?? ''} />”
          </p>
        ) : null}
      </div>

      <section aria-labelledby="who">
        <h2 id="who" className="text-base font-semibold">
          Participants
        </h2>
        <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
          {view.participants.map((p) => (
            <li
              key={p.did}
              className="flex flex-wrap items-baseline justify-between gap-2 px-3 py-2"
              data-testid="participant"
              data-did={p.did}
              data-phase={p.phase}
              data-revision={p.revision}
            >
              <span className="min-w-0 font-medium">
                <Name id={p.did} />{' '}
                <span className="font-normal text-slate-500 dark:text-slate-400">
                  {p.required ? 'required' : 'optional'} · {zones[p.did] ?? ZONE_UNKNOWN}
                </span>
              </span>
              <span>
                <span data-testid="participant-phase">{PHASE_WORDS[p.phase] ?? p.phase}</span> ·{' '}
                <Term words="has seen version" term="holds revision (OACoP)" />{' '}
                <span data-testid="participant-revision">{p.revision}</span>
              </span>
              {p.lastError ? (
                <span className="w-full text-rose-700 dark:text-rose-300" data-testid="participant-error">
                  <LongText text={`${p.lastError.code}: ${oacopErrorWords(p.lastError.code, p.lastError.message)}`} />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      {grid ? (
        <section aria-labelledby="heat">
          <h2 id="heat" className="mb-2 text-base font-semibold">
            Availability
          </h2>
          <HeatMap
            grid={grid}
            names={names}
            zones={{ ...zones }}
            operatorZone={operatorZone}
            highlight={finalSlot ?? best}
          />
        </section>
      ) : null}

      {state.status === 'PROPOSED' ? (
        <section aria-labelledby="slots" className="space-y-2">
          <h2 id="slots" className="text-base font-semibold">
            Suggested slot
          </h2>
          {view.suggestion !== null && 'error' in view.suggestion ? (
            <Notice tone="warn" title="No suggestion">
              {oacopErrorWords(view.suggestion.error.code, view.suggestion.error.message)}
            </Notice>
          ) : null}
          {isInitiator && suggestion && suggestion.candidates.length > 0 ? (
            <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="approve-what">
              Approving a time confirms <LongText text={`“${state.object.title?.trim() || 'Untitled meeting'}”`} />
              {state.object.duration ? ` (${durationWords(state.object.duration)})` : ''} with{' '}
              {namesSentence(view.participants.filter((p) => p.required).map((p) => name(p.did)))}
              {view.participants.some((p) => !p.required)
                ? `, and optionally ${namesSentence(view.participants.filter((p) => !p.required).map((p) => name(p.did)))}`
                : ''}
              : each of them is sent the confirmation, signed by you.
            </p>
          ) : null}
          {view.participants.some((p) => p.phase === 'INVITED') ? (
            <p className="text-sm text-slate-500">Waiting for answers…</p>
          ) : null}
          {suggestion && suggestion.candidates.length > 0 ? (
            <ul className="space-y-2">
              {suggestion.candidates.map((c, i) => (
                <SlotRow
                  key={c.start}
                  slot={c}
                  best={i === 0}
                  title={state.object.title}
                  participants={view.participants}
                  zones={zones}
                  operatorZone={operatorZone}
                  now={now}
                  name={name}
                  onApprove={isInitiator ? () => approve(c) : undefined}
                  busy={act.isPending}
                />
              ))}
            </ul>
          ) : null}
          {suggestion && suggestion.candidates.length === 0 && !view.participants.some((p) => p.phase === 'INVITED') ? (
            <div data-testid="no-common-slot">
              <Notice tone="warn" title="No common slot">
                No time in the window suits every required participant. The nearest alternatives, and who would be
                missing:
              </Notice>
              <ul className="mt-2 space-y-2">
                {suggestion.nearestAlternatives.map((c) => (
                  <SlotRow
                    key={c.start}
                    slot={c}
                    best={false}
                    title={state.object.title}
                    participants={view.participants}
                    zones={zones}
                    operatorZone={operatorZone}
                    now={now}
                    name={name}
                  />
                ))}
              </ul>
            </div>
          ) : null}
          {!isInitiator ? (
            <p className="text-sm text-slate-500">Only the initiator ({name(state.initiator)}) may approve a slot.</p>
          ) : null}
        </section>
      ) : null}

      {lost ? <LostRace detail={lost} me={me} /> : null}
      {refusal ? (
        <Notice tone="error" title="Not sent">
          <span data-testid="action-error" title={refusal.code}>
            {oacopErrorWords(refusal.code, refusal.message)}
          </span>
        </Notice>
      ) : null}

      <section aria-labelledby="cal" className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <h2 id="cal" className="text-base font-semibold">
            Calendar
          </h2>
          <Button onClick={exportIcs} disabled={state.status === 'PROPOSED'}>
            Download .ics
          </Button>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            The file names the event after this thread and counts its versions (
            <Term words="its ID and sequence" term="UID = the thread id, SEQUENCE = the revision" />) in UTC times:
            importing it again updates the same calendar event instead of adding one.
          </p>
          <IcsImport
            window={state.constraints.timeWindow}
            people={[{ did: 'me', name: 'You' }, ...view.participants.map((p) => ({ did: p.did, name: name(p.did) }))]}
            onImport={onImport}
          />
        </div>
        {state.status !== 'CANCELLED' && me !== null && (isInitiator || recipients.includes(me)) ? (
          <div className="space-y-2">
            <h2 className="text-base font-semibold">Cancel</h2>
            <TextField
              ref={reasonField}
              label="Reason for cancelling"
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setReasonMissing(false);
              }}
              maxLength={500}
              required
              error={reasonMissing ? 'Give a reason the participants will read.' : undefined}
            />
            <Button variant="secondary" onClick={cancel} busy={act.isPending} disabled={act.isPending}>
              Cancel the meeting
            </Button>
          </div>
        ) : null}
      </section>
    </div>
  );
}

interface SlotRowProps {
  readonly slot: CandidateSlot;
  readonly best: boolean;
  readonly title: string | undefined;
  readonly participants: SchedulingThread['participants'];
  readonly zones: Readonly<Record<string, string>>;
  readonly operatorZone: string;
  readonly now: number;
  readonly name: (did: string) => string;
  readonly onApprove?: (() => void) | undefined;
  readonly busy?: boolean;
}

/**
 * One slot: the time in the operator's zone, then every attendee by name with the slot's time where
 * they are (or that their zone is unknown), then Approve, labelled with the meeting and its time
 * (decisions-web.md §45). Each name opens its id.
 */
function SlotRow({ slot, best, title, participants, zones, operatorZone, now, name, onApprove, busy }: SlotRowProps) {
  const attendees = slotAttendees(slot, participants, (did) => zones[did], name, now);
  return (
    <li
      className={`rounded-lg border px-3 py-2 text-sm ${best ? 'border-teal-500 bg-teal-50 dark:border-teal-700 dark:bg-teal-950/40' : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900'}`}
      data-testid={best ? 'best-slot' : 'slot'}
      data-start={slot.start}
      data-end={slot.end}
    >
      <p className="font-medium" data-testid="slot-when">
        {best ? 'Best: ' : ''}
        {slotInZoneWords(slot, operatorZone, now)}
        {operatorZone === 'UTC' ? '' : ' (your time)'}
      </p>
      <SlotAttendees attendees={attendees} className="mt-1" />
      {onApprove ? (
        <div className="mt-2">
          <Button
            variant={best ? 'primary' : 'secondary'}
            size="sm"
            onClick={onApprove}
            busy={busy}
            disabled={busy}
            aria-label={approveSlotLabel(title, slot, operatorZone, now)}
          >
            Approve this time
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/** "Ana confirmed this 12 seconds ago", its age kept current. */
function LostRace({ detail, me }: { detail: DecidedDetail; me: string | null }) {
  const now = useNow(1_000);
  return (
    <Notice tone="warn" title="Someone decided first">
      <span data-testid="lost-race">
        {decidedInWords(detail, now, me)} Nothing was signed or sent for your decision.
      </span>
    </Notice>
  );
}
