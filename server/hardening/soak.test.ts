// The soak's shortened form for CI: about 25 s of agents, gateway traffic and
// long-polls together. Asserts counts and the heap bound, never timings. The full run is
// `npm run soak` (bench/soak.ts); figures in docs/security-faults.md.
import { describe, expect, it } from 'vitest';
import { runSoak } from './soak-run';

/**
 * Live-heap growth allowed between the first and last quarter after warm-up (each sample follows a
 * full GC; server decision 23): measured +2.5 MB over this run.
 */
const HEAP_BOUND_MB = 24;

describe('soak (shortened)', () => {
  it('drops no message and keeps the heap floor within the bound', async () => {
    const report = await runSoak({ seconds: 15 });
    // Load actually ran: without it the rest would hold trivially.
    expect(report.approved).toBeGreaterThan(100);
    expect(report.agoraPosted).toBeGreaterThan(10);
    expect(report.longPolls).toBeGreaterThan(report.agoraPosted);
    expect(report.heartbeats).toBeGreaterThan(0);
    // Every approval was spent once, reached the public subscriber and is in history.
    expect(report.publicReceived).toBe(report.approved);
    expect(report.missingFromHistory).toBe(0);
    expect(report.missingAtSubscriber).toBe(0);
    // Every candidate the grant refuses got its reject.
    expect(report.rejectsSeen).toBe(report.refusedByDesign);
    expect(report.approved + report.refusedByDesign).toBe(report.candidatesAcked);
    // Every long-poller received every REQUEST.
    expect(report.agoraLeastDelivered).toBe(report.agoraPosted);
    expect(report.samples.length).toBeGreaterThan(10);
    expect(report.heapGrowthMb).toBeLessThan(HEAP_BOUND_MB);
  }, 180_000);
});
