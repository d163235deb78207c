import { useEffect, useState } from 'react';

/**
 * The current time, ticking every `everyMs`, for countdowns and "N s ago" labels. Each caller
 * names its tick: a countdown wants seconds, a relative time label far less.
 */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
