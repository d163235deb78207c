// Vitest setup file: in a run pinned to another instant (SWITCHBOARD_TEST_CLOCK, server/clock.ts;
// decisions-server.md §69), Date in every test worker reads that instant from the start and runs
// on at the real rate, as the servers and the browser of the same run do. Unpinned, it does nothing.
import timekeeper from 'timekeeper';
import { TEST_CLOCK_VARIABLE, testClockShift } from '../server/clock';

const setting = process.env[TEST_CLOCK_VARIABLE];
if (setting) timekeeper.travel(new Date(Date.now() + testClockShift(setting)));
