// A soft claim while this facilitator acts on an item (a reason being typed, an answer being
// written): POST /api/inbox/claims now and again before it lapses, so the others see "Ana is
// deciding…" for as long as the form is open, and nothing once it closes.
import { claimInboxItem } from '@web/lib/api/inbox';
import { useEffect } from 'react';

/** Renew when this share of the claim's time is left; never more often than MIN_RENEW_MS. */
const RENEW_AT = 0.5;
const MIN_RENEW_MS = 2_000;

export function useClaim(itemId: string | null): void {
  useEffect(() => {
    if (itemId === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const claim = () =>
      claimInboxItem(itemId).then(
        (c) => {
          if (!stopped && c !== undefined)
            timer = setTimeout(() => void claim(), Math.max(MIN_RENEW_MS, (c.until - Date.now()) * RENEW_AT));
        },
        // A refused claim (the item just left, a rate limit) changes nothing for the one acting.
        () => undefined,
      );
    void claim();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [itemId]);
}
