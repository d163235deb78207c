// The agreement, words first (decisions-web.md §32): what is agreed as labelled fields with units,
// the parties by name and where each signature stands, what signing changes, then a confirmation.
// Behind "Show the proof": the exact bytes to be signed and the hash, both recomputed here from the
// agreement (not taken from the server), each party's key fingerprint, and the log position with
// its inclusion proof verified here against the head hash. Presenter mode keeps the proof closed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { agreementSigningBytes, type SignatureStatus } from '@shared/negotiation/agreement';
import { verifyInclusion } from '@shared/negotiation/inclusion-proof';
import type { PartyDid } from '@shared/negotiation/primitives';
import { AgreementTerms } from '@web/components/agreement-terms';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { CopyButton } from '@web/components/ui/copy-button';
import { useDisplayZone } from '@web/components/when';
import { agreementSentence } from '@web/lib/negotiation/agreement-words';
import { useNames } from '@web/lib/names/use-names';
import { usePresenter } from '@web/lib/presenter';
import { useNow } from '@web/lib/use-now';
import { dayWords } from '@web/lib/time-words';
import { useState } from 'react';
import { Notice } from '@web/components/ui/notice';
import { cosignAgreement } from '@web/lib/api/negotiation-cosign';
import type { NegotiationDetail } from '@web/lib/api/negotiation-get';
import { fetchLogProof } from '@web/lib/api/transparency-log-proof';
import { keyFingerprint } from '@web/lib/identity/did-display';
import { Party, VerifiedBadge } from './parts';
import { signStatement } from './operator-documents';
import type { HistoryVerdict } from './verify-history';
import { negotiationErrorInWords } from './words';

const STATUS_WORDS: Readonly<Record<SignatureStatus, string>> = {
  valid: 'Signed, verified',
  missing: 'Not signed yet',
  invalid: 'Signature does not verify',
};

/** The cached log proof of one agreement, as the panel reads it and the export finds it. */
export const proofQueryKey = (id: string, source: string | undefined, index: number | null, version: number) =>
  ['negotiation', id, source ?? 'built-in', 'proof', index, version] as const;

export interface AgreementPanelProps {
  readonly detail: NegotiationDetail;
  readonly verdict: HistoryVerdict | null;
  readonly me: string | undefined;
  /** The external negotiation service it lives on; undefined for the built-in one. */
  readonly source?: string | undefined;
  /** Why nothing may be sent to that service now (read-only, down); co-signing is then hidden. */
  readonly blocked?: string | null;
}

export function AgreementPanel({ detail, verdict, me, source, blocked = null }: AgreementPanelProps) {
  const agreement = detail.agreement as {
    agreement_id: string;
    agreement_hash: string;
    parties: [string, string];
    terms?: Record<string, unknown>;
    effective_from?: string;
    effective_until?: string | null;
  } | null;
  const { nameOf } = useNames();
  const zone = useDisplayZone();
  const now = useNow(60_000);
  const presenter = usePresenter((p) => p.on);
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const check = verdict?.agreement ?? null;
  const recomputed = check?.ok ? check.verdict : null;
  // The statement is rebuilt here from the agreement id and the hash recomputed from its fields.
  const statement =
    recomputed && agreement
      ? new TextDecoder().decode(
          agreementSigningBytes({ agreement_id: agreement.agreement_id, agreement_hash: recomputed.agreement_hash }),
        )
      : null;
  const sameAsServer = statement !== null && statement === detail.signing?.statement_jcs;
  const myStatus = me && recomputed ? recomputed.signatures[me as PartyDid] : undefined;
  const canCosign = me !== undefined && myStatus === 'missing' && sameAsServer && blocked === null;

  const cosign = useMutation({
    mutationFn: async () => {
      if (!agreement || !recomputed || !me) throw new Error('Nothing to co-sign.');
      const signature = await signStatement(
        { agreement_id: agreement.agreement_id, agreement_hash: recomputed.agreement_hash },
        me as PartyDid,
      );
      return cosignAgreement(detail.negotiation.id, me, signature, source);
    },
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: ['negotiation', detail.negotiation.id] });
    },
    onError: () => setConfirming(false),
  });

  const logIndex = detail.log?.index ?? null;
  const proof = useQuery({
    queryKey: proofQueryKey(detail.negotiation.id, source, logIndex, detail.negotiation.version),
    enabled: logIndex !== null,
    queryFn: async ({ signal }) => {
      const answer = await fetchLogProof(logIndex!, signal, source);
      const inclusion = verifyInclusion(answer.proof, answer.head_hash);
      return { answer, inclusion };
    },
  });

  if (!agreement) return null;
  const inclusion = proof.data?.inclusion;
  const proofOk =
    inclusion?.ok === true && recomputed !== null && inclusion.value.integrity_hash === recomputed.agreement_hash;

  const terms = agreement.terms ?? {};
  const sentence = agreementSentence({
    parties: [nameOf(agreement.parties[0]), nameOf(agreement.parties[1])],
    terms,
    effectiveFrom: agreement.effective_from,
    zone,
    now,
  });
  const other = agreement.parties.find((p) => p !== me);
  const otherSigned =
    recomputed !== null && other !== undefined && recomputed.signatures[other as PartyDid] === 'valid';
  const fromMs = agreement.effective_from ? Date.parse(agreement.effective_from) : Number.NaN;
  const untilMs = agreement.effective_until ? Date.parse(agreement.effective_until) : Number.NaN;
  const ifYouSign = otherSigned
    ? `${nameOf(other!)} has signed. Your signature completes the agreement: it binds you to these terms and is added to the public transparency log, where anyone can verify it.`
    : 'Your signature binds you to these terms. Once both parties have signed, the agreement is complete and added to the public transparency log.';

  return (
    <section
      aria-labelledby="agreement-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      data-testid="agreement-panel"
    >
      <h2 id="agreement-heading" className="text-lg font-semibold">
        Agreement
      </h2>
      <p className="mt-1 text-sm text-slate-800 dark:text-slate-200" data-testid="agreement-sentence">
        {sentence}
      </p>

      <h3 className="mt-4 text-sm font-semibold">What is agreed</h3>
      <AgreementTerms
        terms={terms}
        category={detail.negotiation.category}
        ownManifest={source === undefined}
        className="mt-2"
      />
      <dl className="mt-2 grid grid-cols-[minmax(0,max-content)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">In force from</dt>
        <dd className="font-medium" data-testid="agreement-from">
          {Number.isFinite(fromMs) ? dayWords(fromMs, zone, now) : 'when both have signed'}
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">Until</dt>
        <dd className="font-medium">
          {Number.isFinite(untilMs) ? dayWords(untilMs, zone, now) : 'ended under its terms'}
        </dd>
      </dl>

      <h3 className="mt-4 text-sm font-semibold">Parties</h3>
      {check === null ? (
        <p role="status" className="mt-2 text-sm text-slate-500">
          Checking the agreement in this browser…
        </p>
      ) : !check.ok ? (
        <div className="mt-3">
          <Notice tone="error" title="The agreement does not verify in this browser">
            {check.message} ({check.code})
          </Notice>
        </div>
      ) : (
        <>
          <ul className="mt-2 space-y-2">
            {agreement.parties.map((p) => {
              const status = check.verdict.signatures[p as PartyDid] ?? 'missing';
              return (
                <li
                  key={p}
                  data-testid="agreement-signature"
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm"
                >
                  <Party did={p} me={me} />
                  <VerifiedBadge ok={status === 'missing' ? null : status === 'valid'} label={STATUS_WORDS[status]} />
                </li>
              );
            })}
          </ul>
          {canCosign ? (
            <div className="mt-4 rounded-md border border-teal-200 bg-teal-50 p-3 text-sm dark:border-teal-900 dark:bg-teal-950/40">
              <p data-testid="if-you-sign">
                <span className="font-semibold">If you sign: </span>
                {ifYouSign}
              </p>
              <div className="mt-3 flex flex-wrap items-center gap-3">
                <Button variant="primary" onClick={() => setConfirming(true)}>
                  Co-sign…
                </Button>
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  Signed here with your key; only the signature is sent.
                </span>
              </div>
            </div>
          ) : null}
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title="Co-sign this agreement?"
            confirmLabel="Co-sign the agreement"
            tone="primary"
            busy={cosign.isPending}
            onConfirm={() => cosign.mutate()}
          >
            <p>{sentence}.</p>
            <p className="mt-2">{ifYouSign}</p>
          </ConfirmDialog>
          {cosign.isError ? (
            <div className="mt-3">
              <Notice tone="error" title="Not co-signed">
                {negotiationErrorInWords(cosign.error)}
              </Notice>
            </div>
          ) : null}
          {check.verdict.complete ? (
            <p
              className="mt-3 text-sm font-medium text-emerald-800 dark:text-emerald-300"
              data-testid="agreement-complete"
            >
              Both parties’ signatures verify: the agreement is complete.
            </p>
          ) : null}
        </>
      )}
      {logIndex !== null ? (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300" data-testid="agreement-logged">
          Recorded in the public{' '}
          <Link
            to="/transparency-log"
            search={{ entry: logIndex }}
            className="text-teal-700 underline underline-offset-2 dark:text-teal-300"
          >
            transparency log
          </Link>
          {proof.data
            ? proofOk
              ? ', and this browser verified it is there.'
              : ', but its proof does not verify here.'
            : '.'}
        </p>
      ) : null}

      {/* The proof: one click away, closed in presenter mode (decisions-web.md §32). */}
      <details
        key={presenter ? 'presenter' : 'console'}
        className="mt-4 rounded-md border border-slate-200 p-3 text-sm dark:border-slate-800"
        data-testid="agreement-proof"
        data-proof
      >
        <summary className="cursor-pointer font-medium text-slate-700 dark:text-slate-300">Show the proof</summary>
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
          Agreement <span className="font-mono">{agreement.agreement_id}</span>
        </p>
        {check?.ok ? (
          <>
            <dl className="mt-3 grid gap-x-4 gap-y-2 sm:grid-cols-[11rem_1fr]">
              <dt className="text-slate-600 dark:text-slate-400">Agreement hash</dt>
              <dd className="flex flex-wrap items-center gap-2">
                <code data-testid="agreement-hash" className="break-all font-mono text-xs">
                  {check.verdict.agreement_hash}
                </code>
                <VerifiedBadge ok={true} label="Recomputed here from the agreement’s fields" />
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Exact bytes signed</dt>
              <dd>
                <div className="flex items-start gap-2 rounded-md bg-slate-100 p-2 dark:bg-slate-950">
                  <code data-testid="statement-jcs" className="min-w-0 flex-1 break-all font-mono text-xs">
                    {statement}
                  </code>
                  <CopyButton text={statement ?? ''} />
                </div>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  {sameAsServer
                    ? 'RFC 8785 (JCS) UTF-8 bytes, rebuilt in this browser; identical to the server’s statement_jcs.'
                    : 'The server’s statement_jcs differs from the one rebuilt here: do not sign.'}
                </p>
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Key fingerprints</dt>
              <dd className="space-y-1">
                {agreement.parties.map((p) => (
                  <p key={p} className="flex flex-wrap items-center gap-2">
                    <Party did={p} me={me} />
                    <span
                      className="font-mono text-xs text-slate-500 dark:text-slate-400"
                      title="Key fingerprint: the first 64 bits of SHA-256 over the public key"
                      data-testid="key-fingerprint"
                    >
                      {keyFingerprint(p)}
                    </span>
                  </p>
                ))}
              </dd>
            </dl>
          </>
        ) : null}
        <h3 className="mt-4 text-sm font-semibold">Transparency log</h3>
        {logIndex === null ? (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Not in the log.</p>
        ) : (
          <div className="mt-1 flex flex-wrap items-center gap-3 text-sm" data-testid="log-proof">
            <span>
              Entry{' '}
              <Link
                to="/transparency-log"
                search={{ entry: logIndex }}
                className="font-mono text-teal-700 underline-offset-2 hover:underline dark:text-teal-300"
              >
                #{logIndex}
              </Link>
            </span>
            {proof.isPending ? (
              <VerifiedBadge ok={null} label="Checking the inclusion proof…" />
            ) : proof.isError ? (
              <span className="text-rose-700 dark:text-rose-300">{negotiationErrorInWords(proof.error)}</span>
            ) : (
              <>
                <VerifiedBadge
                  ok={proofOk}
                  label={
                    proofOk
                      ? 'Inclusion proof verified'
                      : inclusion?.ok
                        ? 'Proof verifies, but for another hash'
                        : 'Inclusion proof does not verify'
                  }
                  title={inclusion && !inclusion.ok ? inclusion.error.message : undefined}
                />
                {proof.data ? (
                  <span className="text-xs text-slate-500 dark:text-slate-400">
                    against head <code className="font-mono">{proof.data.answer.head_hash.slice(0, 19)}…</code> of{' '}
                    {proof.data.answer.size} entries
                  </span>
                ) : null}
              </>
            )}
          </div>
        )}
      </details>
    </section>
  );
}
