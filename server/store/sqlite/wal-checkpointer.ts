// Runs SQLite's WAL checkpoints on a worker thread, so that their copying and fsyncs do not stall
// the event loop (docs/benchmarks.md, "Gateway": the p99 at 1,000 msg/s). The server's own
// connection keeps its automatic checkpoint: a passive checkpoint elsewhere can never reset the WAL
// under continuous writes (the writer must find it fully copied), so the in-thread one still runs
// every `wal_autocheckpoint` pages, but finds most frames already copied and synced.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { moduleLogger } from '../../logging/logger';

const log = moduleLogger('store');

// Plain JavaScript, evaluated: the worker needs no TypeScript loader in any runner.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

export function startWalCheckpointer(file: string, everyMs = 100): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, everyMs } });
  worker.unref();
  // A checkpoint that cannot run is not fatal: the connection's own automatic checkpoint still runs.
  worker.on('error', (error) => log.warn({ err: error }, 'the WAL checkpoint worker stopped'));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Held until it has closed its connection: an unref'd worker would let a closing process
      // leave this await unsettled.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
