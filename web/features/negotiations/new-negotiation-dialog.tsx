// "New negotiation": the operator opens one as a party and makes the first offer, signing the
// open document (decisions-negotiation §3) and the round-1 proposal in the browser. The
// counterparty is picked by name from the parties already seen in the list and the agents the
// naming service knows (decisions-web.md §33), or typed as any Ed25519 did:key. Terms are fields for what the manifest names per category
// (decisions-demo §13), other terms JSON behind "Advanced".
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { isDidKey } from '@shared/crypto/did-key';
import { unwrap } from '@shared/errors';
import { CONFIDENTIALITY_CLASSES, type ConfidentialityClass } from '@shared/negotiation/confidentiality';
import { limitsFromManifest } from '@shared/negotiation/manifest';
import { openNegotiation as openState } from '@shared/negotiation/open-negotiation';
import type { Terms } from '@shared/negotiation/primitives';
import { transition } from '@shared/negotiation/transition';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { negotiationManifestQuery } from '@web/lib/api/negotiation-manifest';
import { postNegotiationEvent } from '@web/lib/api/negotiation-event';
import { openNegotiation } from '@web/lib/api/negotiation-open';
import { negotiationsQuery } from '@web/lib/api/negotiations-list';
import { useState, type FormEvent } from 'react';
import { useNames } from '@web/lib/names/use-names';
import { Name } from '@web/components/name';
import { signOpen, signProposal } from './operator-documents';
import { TermsEditor } from './terms-editor';
import { negotiationErrorInWords } from './words';

const selectClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950';

export function NewNegotiationDialog({
  open,
  onOpenChange,
  me,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  me: string;
}) {
  const manifest = useQuery(negotiationManifestQuery);
  const known = useQuery(negotiationsQuery(null));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  /** The did picked from the list, or '' for "another agent, by its did:key". */
  const [picked, setPicked] = useState('');
  const counterparty = picked || typed;
  const { book, nameOf } = useNames();
  const [category, setCategory] = useState('');
  const [mine, setMine] = useState<ConfidentialityClass>('public');
  const [theirs, setTheirs] = useState<ConfidentialityClass>('public');
  const [touched, setTouched] = useState(false);
  const [terms, setTerms] = useState<Terms | null>(null);
  const [minutes, setMinutes] = useState('');
  const categories = manifest.data?.categories ?? [];
  const chosenCategory = category || categories[0] || '';
  const fields = manifest.data?.terms?.[chosenCategory] ?? [];
  const validity = minutes.trim() === '' ? (manifest.data?.default_validity_minutes ?? 60) : Number(minutes);
  const validityProblem =
    Number.isInteger(validity) && validity >= 1 && validity <= 7 * 24 * 60
      ? undefined
      : 'Whole minutes, from 1 to 10080 (a week).';
  const didProblem = !isDidKey(counterparty.trim())
    ? 'Enter the counterparty’s Ed25519 did:key (did:key:z6Mk…).'
    : counterparty.trim() === me
      ? 'You cannot negotiate with yourself.'
      : undefined;
  // Every did:key the console can name, and every party seen: by name, never a bare DID.
  const candidates = [...new Set([...(known.data?.negotiations ?? []).flatMap((n) => n.parties), ...Object.keys(book)])]
    .filter((d) => d !== me && isDidKey(d))
    .map((did) => ({ did, name: nameOf(did), named: book[did] !== undefined }))
    .sort((a, b) => Number(b.named) - Number(a.named) || a.name.localeCompare(b.name));

  const submit = useMutation({
    mutationFn: async () => {
      if (!manifest.data || terms === null) throw new Error('The terms are not complete.');
      const doc = await signOpen({
        me: me as never,
        counterparty: counterparty.trim() as never,
        category: chosenCategory,
        mine,
        theirs,
      });
      // The round-1 proposal is built on the state the open document makes, as the server's is,
      // and checked by the same state machine before anything is sent: a refused offer leaves no
      // negotiation open behind it.
      const now = Date.now();
      const ctx = { now, limits: unwrap(limitsFromManifest({ negotiation: manifest.data })) };
      const opened = unwrap(openState(doc, ctx));
      const proposal = await signProposal(opened, me as never, terms, validity, now);
      unwrap(transition(opened, { type: 'propose', document: proposal }, ctx));
      const summary = await openNegotiation(doc);
      await postNegotiationEvent(summary.id, 'propose', proposal);
      return summary;
    },
    onSuccess: async (summary) => {
      await queryClient.invalidateQueries({ queryKey: ['negotiations'] });
      onOpenChange(false);
      await navigate({ to: '/negotiations/$negotiationId', params: { negotiationId: summary.id } });
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (didProblem || !chosenCategory || terms === null || validityProblem) return;
    submit.mutate();
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New negotiation"
      description="You open it as a party: the open document is signed here with your key."
    >
      <form onSubmit={onSubmit} className="mt-4 space-y-4" noValidate>
        <div>
          <label
            htmlFor="negotiation-counterparty"
            className="block text-sm font-medium text-slate-700 dark:text-slate-300"
          >
            Counterparty
          </label>
          <select
            id="negotiation-counterparty"
            value={picked}
            onChange={(e) => setPicked(e.target.value)}
            className={selectClass}
          >
            <option value="">Another agent, by its did:key…</option>
            {candidates.map((c) => (
              <option key={c.did} value={c.did} title={c.did}>
                {c.name}
              </option>
            ))}
          </select>
          {picked ? (
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="counterparty-picked">
              <Name id={picked} /> (its did:key one click away)
            </p>
          ) : null}
        </div>
        {picked ? null : (
          <TextField
            label="Counterparty DID"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            spellCheck={false}
            autoComplete="off"
            error={touched ? didProblem : undefined}
            hint="An agent’s did:key (did:key:z6Mk…), for an agent not in the list above."
          />
        )}
        <div>
          <label
            htmlFor="negotiation-category"
            className="block text-sm font-medium text-slate-700 dark:text-slate-300"
          >
            Category
          </label>
          <select
            id="negotiation-category"
            value={chosenCategory}
            onChange={(e) => setCategory(e.target.value)}
            className={selectClass}
          >
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="grid grid-cols-2 gap-3">
          <div>
            <label htmlFor="negotiation-mine" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
              Your confidentiality
            </label>
            <select
              id="negotiation-mine"
              value={mine}
              onChange={(e) => setMine(e.target.value as ConfidentialityClass)}
              className={selectClass}
            >
              {CONFIDENTIALITY_CLASSES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </div>
          <div>
            <label
              htmlFor="negotiation-theirs"
              className="block text-sm font-medium text-slate-700 dark:text-slate-300"
            >
              Theirs
            </label>
            <select
              id="negotiation-theirs"
              value={theirs}
              onChange={(e) => setTheirs(e.target.value as ConfidentialityClass)}
              className={selectClass}
            >
              {CONFIDENTIALITY_CLASSES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </div>
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">Your first offer</legend>
          {manifest.isPending ? (
            <p className="text-sm text-slate-500">Reading the terms this service names…</p>
          ) : (
            <TermsEditor key={chosenCategory} fields={fields} initial={{}} onChange={setTerms} showAll={touched} />
          )}
          <TextField
            label="Valid for (minutes)"
            inputMode="numeric"
            value={minutes}
            placeholder={String(manifest.data?.default_validity_minutes ?? 60)}
            onChange={(e) => setMinutes(e.target.value)}
            error={touched || minutes !== '' ? validityProblem : undefined}
          />
        </fieldset>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          The negotiation takes the more restrictive class; above “public” the agreement’s terms are redacted in the
          public log.
        </p>
        {submit.isError ? (
          <Notice tone="error" title="Not opened">
            {negotiationErrorInWords(submit.error)}
          </Notice>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" busy={submit.isPending}>
            Sign, open and offer
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
