// When the operator is a party: counter/propose, accept, reject, withdraw, each
// document signed in the browser. What is offered comes from the history this browser replayed
// and verified (shared availableActions), not from the server's say-so. Terms are fields for
// what our manifest names for the category (terms-editor.tsx), other terms JSON. Accepting,
// rejecting and walking away end the negotiation for both parties once signed, so each asks first
// (decisions-web.md §28).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { availableActions } from '@shared/negotiation/available-actions';
import type { PartyDid, Terms } from '@shared/negotiation/primitives';
import { latestProposal, type NegotiationState } from '@shared/negotiation/state';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { Notice } from '@web/components/ui/notice';
import { negotiationManifestQuery } from '@web/lib/api/negotiation-manifest';
import { postNegotiationEvent, type NegotiationEventName } from '@web/lib/api/negotiation-event';
import { useState } from 'react';
import { signAcceptance, signProposal, signRejection, signWithdrawal } from './operator-documents';
import { TermsEditor } from './terms-editor';
import { negotiationErrorInWords } from './words';

type Pending =
  | { kind: 'propose'; terms: Terms; minutes: number }
  | { kind: 'accept' }
  | { kind: 'reject'; reason: string }
  | { kind: 'withdraw'; reason: string };

export interface PartyActionsProps {
  readonly state: NegotiationState;
  readonly me: PartyDid;
  readonly now: number;
  readonly defaultValidityMinutes: number;
  /** The external negotiation service the documents go to; undefined for ours. */
  readonly source?: string | undefined;
}

export function PartyActions({ state, me, now, defaultValidityMinutes, source }: PartyActionsProps) {
  const queryClient = useQueryClient();
  const actions = availableActions(state, me, now).filter((a) => a !== 'cosign');
  const latest = latestProposal(state);
  // An external service's manifest is not ours: its terms are JSON only.
  const manifest = useQuery({ ...negotiationManifestQuery, enabled: source === undefined });
  const fields = source === undefined ? (manifest.data?.terms?.[state.category] ?? []) : [];
  const [terms, setTerms] = useState<Terms | null>(null);
  const [minutes, setMinutes] = useState(defaultValidityMinutes);
  const [reason, setReason] = useState('');
  const [confirmAccept, setConfirmAccept] = useState(false);
  const [ending, setEnding] = useState<'reject' | 'withdraw' | null>(null);

  const act = useMutation({
    mutationFn: async (p: Pending) => {
      const event: NegotiationEventName = p.kind;
      const doc =
        p.kind === 'propose'
          ? await signProposal(state, me, p.terms, p.minutes)
          : p.kind === 'accept'
            ? await signAcceptance(state, me)
            : p.kind === 'reject'
              ? await signRejection(state, me, p.reason)
              : await signWithdrawal(state, me, p.reason);
      return postNegotiationEvent(state.negotiation_id, event, doc, source);
    },
    onSettled: () => setEnding(null),
    onSuccess: async () => {
      setConfirmAccept(false);
      setReason('');
      await queryClient.invalidateQueries({ queryKey: ['negotiation', state.negotiation_id] });
      await queryClient.invalidateQueries({ queryKey: ['negotiations'] });
    },
  });

  if (actions.length === 0) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="party-actions">
        You are a party.{' '}
        {state.status === 'ACCEPTED' && state.agreement?.signatures[me] === undefined
          ? 'Accepted: your co-signature on the agreement is asked for below.'
          : state.status === 'OPEN' || state.status === 'PROPOSED' || state.status === 'COUNTERED'
            ? 'Nothing to do now: it is the other party’s turn.'
            : 'This negotiation has ended.'}
      </p>
    );
  }

  return (
    <section
      aria-labelledby="act-heading"
      data-testid="party-actions"
      className="rounded-lg border border-teal-200 bg-teal-50/40 p-4 dark:border-teal-900 dark:bg-teal-950/20"
    >
      <h2 id="act-heading" className="text-lg font-semibold">
        Your move
      </h2>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Every document is signed here with your key; only the signed document is sent.
      </p>
      {latest && latest.from === me ? (
        <p className="mt-2 text-sm">
          Waiting for the other party’s answer to round {latest.round}; you may still walk away.
        </p>
      ) : null}

      {actions.includes('propose') ? (
        <div className="mt-3">
          <h3 className="text-sm font-medium">
            {latest
              ? `Counter-proposal (round ${latest.round + 1} of ${state.max_rounds})`
              : `Proposal (round 1 of ${state.max_rounds})`}
          </h3>
          {source === undefined && manifest.isPending ? (
            <p className="mt-1 text-sm text-slate-500">Reading the terms this service names…</p>
          ) : (
            <div className="mt-2">
              <TermsEditor
                key={`${latest?.proposal_id ?? 'none'}:${fields.length}`}
                fields={fields}
                initial={latest?.terms ?? {}}
                onChange={setTerms}
              />
            </div>
          )}
          <div className="mt-2 flex flex-wrap items-end gap-3">
            <label className="text-sm">
              Valid for (minutes)
              <input
                type="number"
                min={1}
                max={7 * 24 * 60}
                value={minutes}
                onChange={(e) => setMinutes(Number(e.target.value))}
                className="ml-2 w-24 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
              />
            </label>
            <Button
              variant="primary"
              disabled={terms === null || !(minutes >= 1)}
              busy={act.isPending && act.variables?.kind === 'propose'}
              onClick={() => terms !== null && act.mutate({ kind: 'propose', terms, minutes })}
            >
              {latest ? 'Sign and counter' : 'Sign and propose'}
            </Button>
          </div>
        </div>
      ) : null}

      <div className="mt-4 flex flex-wrap items-end gap-3 border-t border-teal-200 pt-3 dark:border-teal-900">
        {actions.includes('accept') && latest ? (
          confirmAccept ? (
            <span className="flex flex-wrap items-center gap-2 text-sm">
              Accept round {latest.round} as a binding agreement?
              <Button
                variant="primary"
                busy={act.isPending && act.variables?.kind === 'accept'}
                onClick={() => act.mutate({ kind: 'accept' })}
              >
                Sign and accept
              </Button>
              <Button onClick={() => setConfirmAccept(false)}>Cancel</Button>
            </span>
          ) : (
            <Button onClick={() => setConfirmAccept(true)}>Accept round {latest.round}…</Button>
          )
        ) : null}
        {actions.includes('reject') || actions.includes('withdraw') ? (
          <label className="text-sm">
            Reason (optional)
            <input
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={500}
              className="ml-2 w-56 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
            />
          </label>
        ) : null}
        {actions.includes('reject') ? (
          <Button busy={act.isPending && act.variables?.kind === 'reject'} onClick={() => setEnding('reject')}>
            Sign and reject…
          </Button>
        ) : null}
        {actions.includes('withdraw') ? (
          <Button busy={act.isPending && act.variables?.kind === 'withdraw'} onClick={() => setEnding('withdraw')}>
            Sign and walk away…
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => !open && setEnding(null)}
        title={
          ending === 'reject'
            ? `Reject round ${latest?.round ?? ''} and end the negotiation?`
            : 'Walk away from this negotiation?'
        }
        confirmLabel={ending === 'reject' ? 'Sign and reject' : 'Sign and walk away'}
        busy={act.isPending}
        onConfirm={() => ending && act.mutate({ kind: ending, reason })}
      >
        <p>
          {ending === 'reject'
            ? 'You sign a rejection of the latest proposal. The negotiation ends for both parties: no one can counter or accept any more.'
            : 'You sign a withdrawal. The negotiation ends for both parties: no one can propose, counter or accept any more.'}{' '}
          This cannot be undone; to agree later, a new negotiation must be opened.
        </p>
        <p className="mt-2">
          {reason.trim() ? (
            <>
              Your reason, which the other party reads: <q className="break-words">{reason.trim()}</q>
            </>
          ) : (
            'No reason is given.'
          )}
        </p>
      </ConfirmDialog>
      {act.isError ? (
        <div className="mt-3">
          <Notice tone="error" title="Refused">
            {negotiationErrorInWords(act.error)}
          </Notice>
        </div>
      ) : null}
    </section>
  );
}
