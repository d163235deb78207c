import { useEffect, useState } from 'react';

/** The current time, ticking every `everyMs`, for countdowns and "N s ago" labels. */
export function useClock(everyMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
