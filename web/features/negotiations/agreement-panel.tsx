// The agreement: before co-signing, the exact bytes to be signed and the hash,
// both recomputed here from the agreement (not taken from the server), each party's key
// fingerprint and signature status; co-signing signs the statement in the browser. After, the
// log position and its inclusion proof, verified here against the head hash.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { agreementSigningBytes, type SignatureStatus } from '@shared/negotiation/agreement';
import { verifyInclusion } from '@shared/negotiation/inclusion-proof';
import type { PartyDid } from '@shared/negotiation/primitives';
import { Button } from '@web/components/ui/button';
import { CopyButton } from '@web/components/ui/copy-button';
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
  } | null;
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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['negotiation', detail.negotiation.id] }),
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

  return (
    <section
      aria-labelledby="agreement-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      data-testid="agreement-panel"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="agreement-heading" className="text-lg font-semibold">
          Agreement
        </h2>
        <span className="font-mono text-xs text-slate-500 dark:text-slate-400">{agreement.agreement_id}</span>
      </div>

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
          <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[11rem_1fr]">
            <dt className="text-slate-600 dark:text-slate-400">agreement_hash</dt>
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
          </dl>

          <h3 className="mt-4 text-sm font-semibold">Signatures</h3>
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
                  <span
                    className="font-mono text-xs text-slate-500 dark:text-slate-400"
                    title="Key fingerprint: the first 64 bits of SHA-256 over the public key"
                  >
                    {keyFingerprint(p)}
                  </span>
                  <VerifiedBadge ok={status === 'missing' ? null : status === 'valid'} label={STATUS_WORDS[status]} />
                </li>
              );
            })}
          </ul>
          {canCosign ? (
            <div className="mt-4 flex flex-wrap items-center gap-3">
              <Button variant="primary" busy={cosign.isPending} onClick={() => cosign.mutate()}>
                Co-sign these bytes
              </Button>
              <span className="text-xs text-slate-500 dark:text-slate-400">
                Signed here with your key; only the signature is sent.
              </span>
            </div>
          ) : null}
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
    </section>
  );
}
