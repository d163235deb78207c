// Starts a real Switchboard server (the same entry point as `npm start`) on an ephemeral port,
// with its own data directory, and resolves once it announces its address (and, on a first
// start with nobody enrolled, the one-time link for the first facilitator).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningServer {
  readonly url: string;
  readonly dataDir: string;
  /** "Enroll the first facilitator: <link>", printed on a first start; undefined if not seen. */
  readonly enrollUrl: string | undefined;
  /** "MQTT for agents on mqtt://…": the broker's TCP address for agents; undefined if not seen. */
  readonly mqttUrl: string | undefined;
  /** Everything the server printed so far. */
  log(): string;
  stop(): Promise<void>;
}

const ENROLL_LINE = /Enroll the first facilitator: (\S+)/;
const MQTT_LINE = /MQTT for agents on (mqtt:\/\/\S+)/;

export interface StartOptions {
  /** How long to wait, after the address, for the enrollment link (0: do not wait). */
  readonly enrollLinkWaitMs?: number;
}

export async function startServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 30 s:\n${log}`)), 30_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(log);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });
  const enrollUrl = await new Promise<string | undefined>((resolve) => {
    const found = () => ENROLL_LINE.exec(log)?.[1];
    if (found() || !options.enrollLinkWaitMs) return resolve(found());
    const timer = setTimeout(() => {
      clearInterval(poll);
      resolve(found());
    }, options.enrollLinkWaitMs);
    const poll = setInterval(() => {
      const link = found();
      if (link) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve(link);
      }
    }, 20);
  });
  const mqttUrl = await new Promise<string | undefined>((resolve) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const found = MQTT_LINE.exec(log)?.[1];
      if (found || Date.now() - started > 5_000) {
        clearInterval(poll);
        resolve(found);
      }
    }, 20);
  });
  return {
    url,
    dataDir,
    enrollUrl,
    mqttUrl,
    log: () => log,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
