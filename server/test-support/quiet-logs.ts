// Integration setup: servers started in a test's own process write no log lines, so a test run
// reads as it did before the server logged; LOG_LEVEL=debug (for one run) shows them. Servers run
// as child processes log as `npm start` does, into the output their tests read.
import { isLogLevel, setLogLevel } from '../logging/logger';

const asked = process.env.LOG_LEVEL ?? '';
setLogLevel(isLogLevel(asked) ? asked : 'silent');
