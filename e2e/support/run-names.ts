// Names a journey creates on its worker's server (rooms), made unique to the worker process when
// it is a replacement: a failed journey's worker is replaced, and its serial group's retry runs
// `beforeAll` again on the same server, where the first attempt's room already exists.
// Playwright numbers worker processes in TEST_WORKER_INDEX and slots in TEST_PARALLEL_INDEX; the
// first process of each slot has the two equal, so a run without retries keeps the plain names.
export function perWorker(name: string): string {
  const worker = process.env.TEST_WORKER_INDEX;
  return worker === undefined || worker === process.env.TEST_PARALLEL_INDEX ? name : `${name}-w${worker}`;
}
