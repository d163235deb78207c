// A clock the test moves by hand (clocks are injected).
import type { Clock } from '../clock';

export function manualClock(start = 1_760_000_000_000): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}
