// Export: the negotiation as the server sent it (signed history, agreement, log
// entry) plus the inclusion proof and what this browser concluded, as one JSON file anyone can
// re-verify with shared/negotiation (replayHistory, verifyAgreement, verifyInclusion).
import type { NegotiationDetail } from '@web/lib/api/negotiation-get';
import type { LogProof } from '@web/lib/api/transparency-log-proof';
import type { HistoryVerdict } from './verify-history';

export const EXPORT_FORMAT = 'switchboard-negotiation-export';

export function negotiationExport(
  detail: NegotiationDetail,
  proof: LogProof | null,
  verdict: HistoryVerdict | null,
  exportedAt: Date,
) {
  return {
    format: EXPORT_FORMAT,
    version: 1,
    exported_at: exportedAt.toISOString(),
    negotiation: detail.negotiation,
    history: detail.history,
    limits: detail.limits,
    agreement: detail.agreement,
    signing: detail.signing,
    log: detail.log
      ? { ...detail.log, proof: proof?.proof ?? null, head_hash: proof?.head_hash ?? null, size: proof?.size ?? null }
      : null,
    verified_in_browser: verdict
      ? {
          documents: verdict.documents.map((d) => d.status),
          replay: verdict.replay.ok ? 'ok' : { code: verdict.replay.code, index: verdict.replay.index },
          agreement:
            verdict.agreement === null
              ? null
              : verdict.agreement.ok
                ? verdict.agreement.verdict
                : { code: verdict.agreement.code },
        }
      : null,
  };
}

export const exportFileName = (id: string, at: Date) => `negotiation-${id}-${at.toISOString().slice(0, 10)}.json`;
