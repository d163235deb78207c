// Integration setup, and the first import of the benches: servers started in the process itself
// write no log lines, so a test run or a bench reads as it did before the server logged;
// LOG_LEVEL=debug (for one run) shows them. Servers run as child processes log as `npm start`
// does, into the output their tests read.
import { isLogLevel, setLogLevel } from '../logging/logger';

const asked = process.env.LOG_LEVEL ?? '';
setLogLevel(isLogLevel(asked) ? asked : 'silent');
