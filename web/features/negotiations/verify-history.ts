// Checks a negotiation the server sent, in the browser, trusting nothing it says about itself
// (decisions-negotiation.md §30): each history document against its
// signer's did:key (bulk Ed25519 via WebCrypto), the whole history replayed through the shared
// state machine (replayHistory: the same rules the server applied), and the agreement's hash
// recomputed from its fields with each party's signature status (verifyAgreement).
import { verifyDocument, type DidSignatureCheck } from '@shared/crypto/signed-document';
import { agreementSignatureVerifies, verifyAgreement, type AgreementVerdict } from '@shared/negotiation/agreement';
import type { NegotiationLimits } from '@shared/negotiation/manifest';
import type { PartyDid } from '@shared/negotiation/primitives';
import { replayHistory } from '@shared/negotiation/replay';
import { HistoryItem, type NegotiationState } from '@shared/negotiation/state';
import { withBulkCheck } from '@web/lib/negotiation/bulk-check';

export type DocumentVerdict =
  | { readonly status: 'verified'; readonly signer: string }
  | { readonly status: 'not-verified'; readonly signer: string | null; readonly reason: string }
  /** The Tool's own record (expiry): nobody signs it; the replay checks it is due. */
  | { readonly status: 'unsigned' };

export interface HistoryVerdict {
  readonly documents: readonly DocumentVerdict[];
  /** The replayed state, or the first item that does not replay and why. */
  readonly replay:
    | { readonly ok: true; readonly state: NegotiationState }
    | { readonly ok: false; readonly index: number | null; readonly code: string; readonly message: string };
  readonly agreement:
    | { readonly ok: true; readonly verdict: AgreementVerdict }
    | { readonly ok: false; readonly code: string; readonly message: string }
    | null;
}

function signerOf(item: HistoryItem): string | null {
  switch (item.type) {
    case 'open':
      return item.document.opened_by;
    case 'propose':
      return item.document.from;
    case 'accept':
    case 'reject':
    case 'withdraw':
      return item.document.by;
    case 'cosign':
      return item.by;
    case 'expire':
      return null;
  }
}

function documentVerdict(raw: unknown, agreement: unknown, check: DidSignatureCheck): DocumentVerdict {
  const parsed = HistoryItem.safeParse(raw);
  if (!parsed.success) {
    const r = raw as { document?: { from?: unknown; by?: unknown; opened_by?: unknown }; by?: unknown } | null;
    const guess = r?.document?.from ?? r?.document?.by ?? r?.document?.opened_by ?? r?.by;
    return {
      status: 'not-verified',
      signer: typeof guess === 'string' ? guess : null,
      reason: 'Not a well-formed signed document.',
    };
  }
  const item = parsed.data;
  const signer = signerOf(item);
  if (item.type === 'expire' || signer === null) return { status: 'unsigned' };
  if (item.type === 'cosign') {
    const a = agreement as { agreement_id?: unknown; agreement_hash?: unknown } | null;
    if (typeof a?.agreement_id !== 'string' || typeof a.agreement_hash !== 'string') {
      return { status: 'not-verified', signer, reason: 'A co-signature without an agreement to check it against.' };
    }
    return agreementSignatureVerifies(
      { agreement_id: a.agreement_id, agreement_hash: a.agreement_hash as `sha256-${string}` },
      signer as PartyDid,
      item.signature,
      check,
    )
      ? { status: 'verified', signer }
      : { status: 'not-verified', signer, reason: 'The co-signature does not verify over the agreement statement.' };
  }
  const verdict = verifyDocument(item.document, 'signature', signer, check);
  return verdict.ok ? { status: 'verified', signer } : { status: 'not-verified', signer, reason: verdict.message };
}

export interface DetailToVerify {
  readonly history: readonly unknown[];
  readonly agreement: unknown;
  readonly limits: NegotiationLimits;
}

export async function verifyHistory(detail: DetailToVerify): Promise<HistoryVerdict> {
  const { documents, agreement } = await withBulkCheck((check) => ({
    documents: detail.history.map((raw) => documentVerdict(raw, detail.agreement, check)),
    agreement:
      detail.agreement === null || detail.agreement === undefined ? null : verifyAgreement(detail.agreement, check),
  }));
  const replayed = replayHistory(detail.history, detail.limits);
  const index = replayed.ok ? null : replayed.error.details?.['index'];
  return {
    documents,
    replay: replayed.ok
      ? { ok: true, state: replayed.value }
      : {
          ok: false,
          index: typeof index === 'number' ? index : null,
          code: replayed.error.code,
          message: replayed.error.message,
        },
    agreement:
      agreement === null
        ? null
        : agreement.ok
          ? { ok: true, verdict: agreement.value }
          : { ok: false, code: agreement.error.code, message: agreement.error.message },
  };
}
