// The browser's verdict on a negotiation the server sent (verify-history.ts), computed once per
// answer off React's render; the negotiation page and the operator's moves elsewhere share it.
import type { NegotiationDetail } from '@web/lib/api/negotiation-get';
import { useEffect, useState } from 'react';
import { verifyHistory, type HistoryVerdict } from './verify-history';

/** Verifies each new answer once (keyed by the data object), off React's render. */
export function useVerdict(detail: NegotiationDetail | undefined): HistoryVerdict | null {
  const [result, setResult] = useState<{ for: NegotiationDetail; verdict: HistoryVerdict } | null>(null);
  useEffect(() => {
    if (!detail) return;
    let live = true;
    void verifyHistory({ history: detail.history, agreement: detail.agreement, limits: detail.limits }).then(
      (verdict) => {
        if (live) setResult({ for: detail, verdict });
      },
    );
    return () => {
      live = false;
    };
  }, [detail]);
  return result && result.for === detail ? result.verdict : (result?.verdict ?? null);
}
