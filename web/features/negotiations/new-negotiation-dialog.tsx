// "New negotiation": the operator opens one as a party, signing the open document (decisions-
// negotiation §3) in the browser. The counterparty is any Ed25519 did:key; the DIDs of parties
// already seen in the list are offered, which is how a demo agent is picked.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { isDidKey } from '@shared/crypto/did-key';
import { CONFIDENTIALITY_CLASSES, type ConfidentialityClass } from '@shared/negotiation/confidentiality';
import { Button } from '@web/components/ui/button';
import { Dialog } from '@web/components/ui/dialog';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { negotiationManifestQuery } from '@web/lib/api/negotiation-manifest';
import { openNegotiation } from '@web/lib/api/negotiation-open';
import { negotiationsQuery } from '@web/lib/api/negotiations-list';
import { useState, type FormEvent } from 'react';
import { signOpen } from './operator-documents';
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
  const [counterparty, setCounterparty] = useState('');
  const [category, setCategory] = useState('');
  const [mine, setMine] = useState<ConfidentialityClass>('public');
  const [theirs, setTheirs] = useState<ConfidentialityClass>('public');
  const [touched, setTouched] = useState(false);
  const categories = manifest.data?.categories ?? [];
  const chosenCategory = category || categories[0] || '';
  const didProblem = !isDidKey(counterparty.trim())
    ? 'Enter the counterparty’s Ed25519 did:key (did:key:z6Mk…).'
    : counterparty.trim() === me
      ? 'You cannot negotiate with yourself.'
      : undefined;
  const suggestions = [...new Set((known.data?.negotiations ?? []).flatMap((n) => n.parties))].filter((d) => d !== me);

  const submit = useMutation({
    mutationFn: async () => {
      const doc = await signOpen({
        me: me as never,
        counterparty: counterparty.trim() as never,
        category: chosenCategory,
        mine,
        theirs,
      });
      return openNegotiation(doc);
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
    if (didProblem || !chosenCategory) return;
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
        <TextField
          label="Counterparty DID"
          value={counterparty}
          onChange={(e) => setCounterparty(e.target.value)}
          list="negotiation-known-parties"
          spellCheck={false}
          autoComplete="off"
          error={touched ? didProblem : undefined}
          hint="An agent’s did:key. Parties of negotiations listed here are suggested."
        />
        <datalist id="negotiation-known-parties">
          {suggestions.map((d) => (
            <option key={d} value={d} />
          ))}
        </datalist>
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
            Sign and open
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
