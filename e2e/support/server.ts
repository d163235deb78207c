// Starts a real Switchboard server (the same entry point as `npm start`) on an ephemeral port,
// with its own data directory, and resolves once it announces its address (and, on a first
// start with nobody enrolled, the one-time link for the first facilitator). A journey can kill
// it and start it again on the same ports and data directory, as an operator restarting it would.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_MAIN } from '../../server/test-support/compiled-entry';

export interface RunningServer {
  readonly url: string;
  readonly dataDir: string;
  /** "Enroll the first facilitator: <link>", printed on a first start; undefined if not seen. */
  readonly enrollUrl: string | undefined;
  /** "MQTT for agents on mqtt://…": the broker's TCP address for agents; undefined if not seen. */
  readonly mqttUrl: string | undefined;
  /** Everything the server printed so far, across restarts. */
  log(): string;
  /** Stops the process with `signal` and waits for its exit; the data directory stays. */
  kill(signal: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** After `kill`: starts again on the same HTTP and MQTT ports and the same data directory. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const ENROLL_LINE = /Enroll the first facilitator: (\S+)/;
const MQTT_LINE = /MQTT for agents on (mqtt:\/\/[^\s"]+)/;

export interface StartOptions {
  /** How long to wait, after the address, for the enrollment link (0: do not wait). */
  readonly enrollLinkWaitMs?: number;
}

interface Spawned {
  readonly child: ChildProcess;
  readonly url: string;
  /** This start's own output (the address lines of an earlier start must not match). */
  readonly output: () => string;
  readonly exited: Promise<void>;
}

async function spawnServer(env: Record<string, string>, onOutput: (text: string) => void): Promise<Spawned> {
  const child: ChildProcess = spawn(process.execPath, SERVER_MAIN, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      onOutput(chunk.toString());
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

/** Polls `read` until it returns a value or `waitMs` passed. */
function waitForLine(read: () => string | undefined, waitMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const found = read();
      if (found || Date.now() - started > waitMs) {
        clearInterval(poll);
        resolve(found);
      }
    }, 20);
  });
}

export async function startServer(
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-e2e-'));
  // Journeys register services on 127.0.0.1 (another server of the same run).
  const baseEnv = { PORT: '0', DATA_DIR: dataDir, ALLOW_PRIVATE_SERVICE_URLS: '1', ...env };
  let log = '';
  let current: Spawned | undefined = await spawnServer(baseEnv, (text) => (log += text));
  const first = current;
  const enrollUrl =
    ENROLL_LINE.exec(log)?.[1] ??
    (options.enrollLinkWaitMs
      ? await waitForLine(() => ENROLL_LINE.exec(log)?.[1], options.enrollLinkWaitMs)
      : undefined);
  const mqttUrl = await waitForLine(() => MQTT_LINE.exec(log)?.[1], 5_000);
  const kill = async (signal: 'SIGKILL' | 'SIGTERM') => {
    const running = current;
    current = undefined;
    if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return;
    running.child.kill(signal);
    await running.exited;
  };
  return {
    url: first.url,
    dataDir,
    enrollUrl,
    mqttUrl,
    log: () => log,
    kill,
    async restart() {
      if (current) throw new Error('restart() after kill(): the server is still running');
      // The same ports: the browser's page, its cookie and the agents' broker address stay valid.
      const ports: Record<string, string> = { PORT: new URL(first.url).port };
      if (mqttUrl) ports.MQTT_PORT = new URL(mqttUrl).port;
      current = await spawnServer({ ...baseEnv, ...ports }, (text) => (log += text));
    },
    async stop() {
      await kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
