// `npm run soak`: the soak (server/hardening/soak-run.ts) for SOAK_SECONDS
// (default 180), loopback only. Passes when the heap grew by less than SOAK_HEAP_BOUND_MB
// (default 64) between the first and last quarter after warm-up and no message was dropped.
// Results: docs/security-faults.md.
// First: the in-process server logs nothing, as in tests (LOG_LEVEL shows it).
import '../server/test-support/quiet-logs';
import { runSoak } from '../server/hardening/soak-run';

const seconds = Number(process.env.SOAK_SECONDS ?? 180);
const bound = Number(process.env.SOAK_HEAP_BOUND_MB ?? 64);
const report = await runSoak({ seconds, log: (line) => console.log(line) });
const { samples, ...summary } = report;
console.log(JSON.stringify({ ...summary, samples: samples.length, heapBoundMb: bound }, null, 2));
const failures = [
  report.heapGrowthMb >= bound && `heap grew ${report.heapGrowthMb} MB (bound ${bound} MB)`,
  report.missingFromHistory > 0 && `${report.missingFromHistory} messages on public are missing from history`,
  report.missingAtSubscriber > 0 &&
    `${report.missingAtSubscriber} approved messages never reached the public subscriber`,
  report.approved !== report.publicReceived && `spent ${report.approved} != ${report.publicReceived} seen on public`,
  report.rejectsSeen !== report.refusedByDesign &&
    `${report.refusedByDesign - report.rejectsSeen} rejects never arrived`,
  report.agoraLeastDelivered !== report.agoraPosted &&
    `a long-poller got ${report.agoraLeastDelivered} of ${report.agoraPosted} events`,
].filter(Boolean);
console.log(failures.length === 0 ? 'soak: PASS' : `soak: FAIL\n- ${failures.join('\n- ')}`);
process.exit(failures.length === 0 ? 0 : 1);
