// A journey run pinned to another instant (SWITCHBOARD_TEST_CLOCK, server/clock.ts;
// decisions-server.md §69): the servers read it themselves; this moves the Playwright processes'
// own Date (the agents and documents journeys make) and every browser context's clock to the same
// instant, running on at the real rate, so the browser, the journeys and the servers agree.
import timekeeper from 'timekeeper';
import type { BrowserContext } from '@playwright/test';
import { TEST_CLOCK_VARIABLE, testClockShift } from '../../server/clock';

const setting = process.env[TEST_CLOCK_VARIABLE];
const shiftMs = setting ? testClockShift(setting) : 0;

/** In this process: Date reads the pinned time from now on (no-op when the run is not pinned). */
export function pinProcessClock(): void {
  if (shiftMs !== 0) timekeeper.travel(new Date(Date.now() + shiftMs));
}

/** A new browser context's clock at the run's pinned time, flowing (before any page opens). */
export async function pinBrowserClock(context: BrowserContext): Promise<void> {
  if (shiftMs !== 0) await context.clock.install({ time: Date.now() });
}
