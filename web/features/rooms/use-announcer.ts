// Collects arrivals for a short window and then says them in one polite announcement
// (announce.ts). The first arrival after a quiet spell opens the window; what comes within it joins.
import { useCallback, useEffect, useRef, useState } from 'react';
import { announcementFor, type Arrival } from './announce';

export const ANNOUNCE_WINDOW_MS = 1_500;

export function useAnnouncer(windowMs = ANNOUNCE_WINDOW_MS): {
  announcement: string;
  add: (arrivals: readonly Arrival[]) => void;
} {
  const [announcement, setAnnouncement] = useState('');
  const pending = useRef<Arrival[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const add = useCallback(
    (arrivals: readonly Arrival[]) => {
      if (arrivals.length === 0) return;
      pending.current.push(...arrivals);
      timer.current ??= setTimeout(() => {
        timer.current = null;
        setAnnouncement(announcementFor(pending.current.splice(0)));
      }, windowMs);
    },
    [windowMs],
  );
  return { announcement, add };
}
